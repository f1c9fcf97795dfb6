import FoundationEssentials
import HoorayClient

/// What the tray icon's menu holds, and what its tooltip says: made from the status bar's snapshot
/// and the habits, as the launchers read them, so that every front says the same.
///
/// The menu, top to bottom: Log a win… (opens the app's quick log), each habit due today with a
/// checkbox to tick it, the next reminder, pause notifications for an hour or until tomorrow (or
/// resume them, while paused), Open Hooray, and Quit the tray. The entries that open the app are
/// left out when it is not installed.
public struct TrayMenu: Sendable, Equatable {
    /// One entry.
    public struct Entry: Sendable, Equatable {
        /// What it says; empty for a separator.
        public var label: String
        /// What choosing it does; `nil` for a line that only tells (the next reminder) or a separator.
        public var action: TrayAction?
        /// Whether it is a line between groups.
        public var isSeparator: Bool
        /// For a habit: a checkbox, not ticked.
        public var isCheckbox: Bool

        /// An entry that does `action`.
        public static func item(_ label: String, _ action: TrayAction?, checkbox: Bool = false) -> Entry {
            Entry(label: label, action: action, isSeparator: false, isCheckbox: checkbox)
        }

        /// A line between groups.
        public static let separator = Entry(label: "", action: nil, isSeparator: true, isCheckbox: false)
    }

    /// The entries, top to bottom.
    public var entries: [Entry]
    /// The tooltip's first line.
    public var title: String
    /// The tooltip's text under it: today's counts, the next reminder, a pause.
    public var tooltip: String

    /// The most habits listed; more are in the app.
    public static let maxHabits = 10
    /// The longest label, in characters: a habit's name or a reminder's title is cut to it.
    public static let maxLabel = 60

    /// The menu and tooltip for what hoorayd knows now.
    ///
    /// - Parameters:
    ///   - bar: The status bar's snapshot; `nil` when it could not be made.
    ///   - habits: The habits (`hooray habit list --json`); only those due and not done are listed.
    ///   - appInstalled: Whether the desktop app can be opened.
    public init(bar: BarSnapshot?, habits: [ChecklistItem], appInstalled: Bool) {
        title = "Hooray"
        var entries: [Entry] = []
        if appInstalled { entries.append(.item("Log a win…", .open(.logMoment))) }
        let due = habits.filter(\.isDue).prefix(Self.maxHabits)
        if !due.isEmpty {
            if !entries.isEmpty { entries.append(.separator) }
            entries += due.map { .item(Self.short($0.name), .tickHabit($0.name), checkbox: true) }
        }
        var lines: [String] = []
        let counts = bar?.items.map { Launcher.cleaned($0.item.tooltip) }.filter { !$0.isEmpty } ?? []
        lines += counts.isEmpty ? ["Nothing logged yet today"] : counts
        if let next = bar?.next {
            let when = next.when.map { " at \($0)" } ?? ""
            let line = "Next: \(Self.short(next.title))\(when)"
            if !entries.isEmpty { entries.append(.separator) }
            entries.append(.item(line, nil))
            lines.append(line)
        }
        if !entries.isEmpty { entries.append(.separator) }
        if let paused = bar?.paused {
            let line = "Notifications paused until \(paused.when)"
            entries.append(.item(line, nil))
            entries.append(.item("Resume notifications", .resume))
            lines.append(line)
        } else {
            entries.append(.item("Pause notifications for 1 hour", .pause(.hour)))
            entries.append(.item("Pause notifications until tomorrow", .pause(.tomorrow)))
        }
        entries.append(.separator)
        if appInstalled { entries.append(.item("Open Hooray", .open(.home))) }
        entries.append(.item("Quit the tray", .quitTray))
        self.entries = entries
        tooltip = lines.joined(separator: "\n")
    }

    /// `text` on one line, cut to ``maxLabel`` characters.
    static func short(_ text: String) -> String {
        let line = Launcher.cleaned(text)
        return line.count > maxLabel ? line.prefix(maxLabel - 1) + "…" : line
    }
}

/// What choosing a tray entry does: a command hoorayd already runs, or opening the app.
public enum TrayAction: Sendable, Hashable {
    /// Opens the app at a place.
    case open(TrayPlace)
    /// `hooray habit done -- NAME`.
    case tickHabit(String)
    /// `hooray pause 1h` or `hooray pause tomorrow`.
    case pause(TrayPause)
    /// `hooray pause off`.
    case resume
    /// Takes the icon out of the tray until hoorayd starts again.
    case quitTray

    /// A key that names the action across menus, so that an entry keeps its id while it stays.
    public var key: String {
        switch self {
        case .open(let place): "open:" + place.rawValue
        case .tickHabit(let name): "habit:" + name
        case .pause(let length): "pause:" + length.rawValue
        case .resume: "resume"
        case .quitTray: "quit"
        }
    }
}

/// Where a tray entry opens the app: the names its `show` action takes (HoorayKit's `AppPlace`).
public enum TrayPlace: String, Sendable, Hashable {
    /// The main window.
    case home
    /// The quick log.
    case logMoment = "log"
}

/// How long the tray pauses notifications.
public enum TrayPause: String, Sendable, Hashable {
    /// An hour.
    case hour
    /// Until tomorrow morning.
    case tomorrow
}

/// Where the tray's entries are carried out: `hoorayd`, as for the launchers.
public protocol TrayHost: LauncherHost {
    /// Pauses notifications (`hooray pause`), or ends the pause (`nil`).
    func pause(_ length: TrayPause?) async -> LauncherOutcome
}
