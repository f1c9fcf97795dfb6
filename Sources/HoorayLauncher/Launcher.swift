import FoundationEssentials
import HoorayClient

/// What a launcher offers for the words typed into it — GNOME Shell's search, KRunner, rofi or any
/// dmenu-style menu — and what choosing an offer does.
///
/// Every offer is a command `hooray` already has: "win took a walk" offers to log the win "took a
/// walk" (`hooray win`), "habit read" offers each habit due today whose name has "read" in it (`hooray
/// habit done`), and "hooray" alone offers the next reminder and today's counts, which open the app.
/// The words are matched here once, for every launcher; what they run is ``LauncherAction``, which a
/// ``LauncherHost`` carries out as the command line would.
public enum Launcher {
    /// The first word that asks to log a win.
    public static let winWords: Set<String> = ["win", "won"]
    /// The first words that ask for the habits due today.
    public static let habitWords: Set<String> = ["habit", "habits"]
    /// The word that names Hooray: alone, it asks how today goes; before another word it is left out.
    public static let nameWord = "hooray"
    /// The longest query looked at, in characters: launchers send every keystroke, and a longer one
    /// (a paste gone wrong) offers nothing rather than cost anything.
    public static let maxQuery = 4000
    /// The longest win text offered, as `hooray win` takes it.
    public static let maxWinText = 2000
    /// The most habits offered at once.
    public static let maxHabits = 8

    /// What the words typed ask for, before anything is read from `hoorayd`.
    public enum Intent: Sendable, Equatable {
        /// Log a win with this text; empty when only the word "win" was typed yet.
        case win(String)
        /// The due habits whose names have all of these words (lowercased); none for every due habit.
        case habits([String])
        /// How today goes: the next reminder and today's counts.
        case today
        /// Nothing of Hooray's.
        case none
    }

    /// Reads what the words typed ask for.
    ///
    /// Control characters become spaces, runs of spaces become one, and the words are matched
    /// without regard to case: `  WIN  took\ta walk` asks to log "took a walk".
    ///
    /// - Parameter query: The words as the launcher has them (GNOME Shell's terms joined by spaces).
    /// - Returns: The intent; ``Intent/none`` for an empty, unrelated or overlong query.
    public static func intent(of query: String) -> Intent {
        guard query.count <= maxQuery else { return .none }
        var words = cleaned(query).split(separator: " ").map(String.init)
        if words.first?.lowercased() == nameWord {
            words.removeFirst()
            if words.isEmpty { return .today }
        }
        guard let first = words.first?.lowercased() else { return .none }
        let rest = Array(words.dropFirst())
        if winWords.contains(first) { return .win(rest.joined(separator: " ")) }
        if habitWords.contains(first) { return .habits(rest.map { $0.lowercased() }) }
        return .none
    }

    /// Whether offers for `intent` need the habits listed, the status bar's snapshot, or neither.
    public static func needs(_ intent: Intent) -> (habits: Bool, bar: Bool) {
        switch intent {
        case .habits: (true, false)
        case .today: (false, true)
        case .win, .none: (false, false)
        }
    }

    /// The offers for the words typed, best first.
    ///
    /// - Parameters:
    ///   - query: The words typed.
    ///   - habits: The habits, as `hooray habit list --json` lists them; only those due today are offered.
    ///   - bar: The status bar's snapshot, for "hooray" alone; `nil` when `hoorayd` could not be asked.
    /// - Returns: The offers; none when nothing fits.
    public static func results(for query: String, habits: [ChecklistItem] = [], bar: BarSnapshot? = nil)
        -> [LauncherResult]
    {
        switch intent(of: query) {
        case .none:
            return []
        case .win(let text):
            guard !text.isEmpty else {
                return [
                    LauncherResult(
                        action: .open(.home), title: "Log a win…",
                        detail: "Type what you did after “win”, or open Hooray to log it")
                ]
            }
            guard text.count <= maxWinText else { return [] }
            return [LauncherResult(.logWin(text))]
        case .habits(let words):
            return
                habits
                .filter { $0.isDue && words.allSatisfy(fold($0.name).contains) }
                .prefix(maxHabits)
                .map { habit in
                    var result = LauncherResult(.tickHabit(habit.name))
                    if habit.streak > 0 {
                        result.detail = "Keeps your \(habit.streak == 1 ? "1-day" : "\(habit.streak)-day") streak going"
                    }
                    return result
                }
        case .today:
            return today(bar)
        }
    }

    /// The next reminder and today's counts, each an offer that opens the app.
    static func today(_ bar: BarSnapshot?) -> [LauncherResult] {
        guard let bar else {
            return [
                LauncherResult(
                    action: .open(.home), title: "Hooray",
                    detail: "hoorayd is not running, so reminders wait; start it with: systemctl --user start hooray",
                    tag: "stopped")
            ]
        }
        var results: [LauncherResult] = []
        if let next = bar.next {
            let when = next.when ?? ""
            results.append(
                LauncherResult(
                    action: .open(.home), title: "Next: \(cleaned(next.title))",
                    detail: [when, next.waiting.map { "waiting: \($0)" }].compactMap { $0 }.filter { !$0.isEmpty }
                        .joined(separator: " · "), tag: "next"))
        }
        let counts = bar.items.map { cleaned($0.item.tooltip) }.filter { !$0.isEmpty }
        results.append(
            LauncherResult(
                action: .open(.home), title: "Today",
                detail: counts.isEmpty ? "Nothing logged yet today" : counts.joined(separator: " · "), tag: "today"))
        return results
    }

    /// `text` on one line: control and format characters as spaces, runs of white space as one.
    public static func cleaned(_ text: String) -> String {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            let blank =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
            if blank {
                space = !out.isEmpty
            } else {
                if space { out.unicodeScalars.append(" ") }
                space = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` lowercased for matching.
    static func fold(_ text: String) -> String { cleaned(text).lowercased() }
}

/// A habit as a launcher needs it: an element of `hooray habit list --json` (docs/json.md, `habit`).
public struct ChecklistItem: Sendable, Equatable, Decodable {
    /// Its name, which `hooray habit done` takes.
    public var name: String
    /// The current streak, in days.
    public var streak: Int
    /// `done`, `due`, `notDue` or `paused`.
    public var today: String

    /// Whether it is due today and not done yet.
    public var isDue: Bool { today == "due" }

    /// Creates one.
    public init(name: String, streak: Int, today: String) {
        self.name = name
        self.streak = streak
        self.today = today
    }
}

/// What choosing an offer does: one command `hooray` has.
public enum LauncherAction: Sendable, Hashable {
    /// `hooray win -- TEXT`.
    case logWin(String)
    /// `hooray habit done -- NAME`.
    case tickHabit(String)
    /// Opens the app, at a place.
    case open(Place)

    /// Where the app opens.
    public enum Place: String, Sendable, Hashable, CaseIterable {
        /// Its main window.
        case home
    }

    /// The plugin and command that carry it out, with the command's values, as the app sends them to
    /// `hoorayd`; `nil` for ``open(_:)``.
    public var command: (plugin: String, name: String, values: [String: [String]])? {
        switch self {
        case .logWin(let text): ("wins", "log", ["text": [text]])
        case .tickHabit(let name): ("habits", "done", ["name": [name]])
        case .open: nil
        }
    }

    /// The command line that does the same, after `hooray`.
    public var arguments: [String]? {
        switch self {
        case .logWin(let text): ["win", "--", text]
        case .tickHabit(let name): ["habit", "done", "--", name]
        case .open: nil
        }
    }

    /// The offer's id: what a launcher hands back when it is chosen. The text it carries is kept
    /// whole, so the id alone says what to do, however long ago it was offered.
    public var id: String {
        switch self {
        case .logWin(let text): "win:" + text
        case .tickHabit(let name): "habit:" + name
        case .open(let place): "open:" + place.rawValue
        }
    }

    /// The action an id names; `nil` for an id no launcher was given.
    public init?(id: String) {
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let kind = id[..<colon]
        let rest = String(id[id.index(after: colon)...])
        switch kind {
        case "win" where !rest.isEmpty: self = .logWin(rest)
        case "habit" where !rest.isEmpty: self = .tickHabit(rest)
        case "open":
            // After the place, an offer may say which of several opening it is (`open:home:next`).
            guard let place = Place(rawValue: String(rest.prefix { $0 != ":" })) else { return nil }
            self = .open(place)
        default: return nil
        }
    }
}

/// One offer: what the launcher shows, and what choosing it does.
public struct LauncherResult: Sendable, Equatable {
    /// What choosing it does.
    public var action: LauncherAction
    /// Its line, such as `Log a win: took a walk`.
    public var title: String
    /// A second line, smaller.
    public var detail: String

    /// The offer's id: ``LauncherAction/id``, and after it, for offers that open the same place,
    /// which of them it is; ``LauncherAction/init(id:)`` reads the action back from it.
    public var id: String

    /// Creates one.
    ///
    /// - Parameter tag: Tells apart offers with the same action, such as two lines that open the app.
    public init(action: LauncherAction, title: String, detail: String, tag: String? = nil) {
        self.action = action
        self.title = title
        self.detail = detail
        id = action.id + (tag.map { ":" + $0 } ?? "")
    }

    /// The offer of `action` in its plain words, as it is offered when nothing more is known.
    public init(_ action: LauncherAction) {
        switch action {
        case .logWin(let text):
            self.init(action: action, title: "Log a win: \(text)", detail: "Saved to your moments, with praise at once")
        case .tickHabit(let name):
            self.init(action: action, title: "Done today: \(name)", detail: "Marks it done for today")
        case .open:
            self.init(action: action, title: "Hooray", detail: "Open Hooray")
        }
    }
}
