import FoundationEssentials
import HoorayClient

/// Where a launcher's offers are read from and carried out: `hoorayd` itself for GNOME Shell and
/// KRunner, the `hooray` program for `hooray menu`.
public protocol LauncherHost: Sendable {
    /// The checklist of things done daily, as ``Launcher/checklistCommand`` lists it; `nil` when it cannot be had.
    func checklist() async -> [ChecklistItem]?
    /// What the status bar shows; `nil` when `hoorayd` cannot be asked.
    func bar() async -> BarSnapshot?
    /// Runs the command of `action` (``LauncherAction/command``) as `hooray` would.
    ///
    /// - Returns: ``LauncherOutcome/failed(_:)`` with what the command said when it failed.
    func run(_ action: LauncherAction) async -> LauncherOutcome
}

/// How a chosen offer went.
public enum LauncherOutcome: Sendable, Equatable {
    /// It was done; the usual notification says so.
    case done
    /// The command refused or failed; the text says why, as the command line would.
    case failed(String)
    /// The id handed back names nothing a launcher was offered.
    case unknown
}

extension Launcher {
    /// The offers for the words typed, reading from `host` only what they need.
    public static func offers(for query: String, from host: some LauncherHost) async -> [LauncherResult] {
        let intent = intent(of: query)
        let needs = needs(intent)
        let habits = needs.habits ? await host.checklist() ?? [] : []
        let bar = needs.bar ? await host.bar() : nil
        return results(for: query, habits: habits, bar: bar)
    }

    /// Carries out the offer `id` names, through `host`; ``LauncherAction/open(_:)`` is left to the
    /// launcher, which answers it as `done`.
    public static func perform(id: String, on host: some LauncherHost) async -> LauncherOutcome {
        guard let action = LauncherAction(id: id) else { return .unknown }
        if case .logWin(let text) = action {
            // An id is the launcher's to hand back; one made up by hand is held to what was offered.
            let kept = cleaned(text)
            guard !kept.isEmpty else { return .failed("there is nothing to log: the win has no words") }
            guard kept.count <= maxWinText else {
                return .failed("the win is \(kept.count) characters long; the most is \(maxWinText)")
            }
            return await host.run(.logWin(kept))
        }
        if case .open = action { return .done }
        return await host.run(action)
    }
}
