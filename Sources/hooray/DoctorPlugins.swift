import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayEngine
import HoorayKit
import HoorayText

extension Doctor {
    /// The plugins in other languages: a held one (its plugin.toml asks for a permission the user
    /// has not allowed) does not run, so its reminders are not shown. `nil` when there is none.
    func pluginsCheck(_ session: CLISession) async -> DoctorCheck? {
        guard let reports = try? await PluginReports.current(session, quiet: true).reports else { return nil }
        let external = reports.filter { $0.kind == "external" && $0.state != "refused" }
        guard !external.isEmpty else { return nil }
        let held = external.filter { $0.state == "held" }
        guard let first = held.first else {
            let count = external.count
            return .ok("plugins", "\(count) in another language\(count == 1 ? "" : "s"), none held")
        }
        let names = held.map(\.name)
        let words = (first.notAllowed ?? []).joined(separator: "; ")
        let detail =
            held.count == 1
            ? "\(first.name) is held, so it does not run: its plugin.toml now asks to \(words), which you have not allowed"
            : "\(names.joined(separator: ", ")) are held, so they do not run: each asks for a permission you have not allowed"
        return .warning(
            "plugins", TerminalText.safe(detail),
            fix: "`hooray plugins show \(first.name)` says what it could reach; "
                + "`hooray plugins allow \(first.name)` allows it and starts it")
    }
}
