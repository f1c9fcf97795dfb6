import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayConfig
import HoorayEngine
import HoorayKit
import HoorayTerminal
import HoorayText

/// `hooray review`: one calm look back at a week across everything — wins, habits, rejections and
/// recoveries, swaps, challenges — beside the week before, from each plugin's own figures.
public struct Review: AsyncParsableCommand, OffersJSON {
    public static let configuration = CommandConfiguration(
        abstract: "One calm look back at your week: wins, habits, recoveries, swaps and challenges.",
        discussion: """
            Shows the week beside the week before, in a few warm lines and a small table: the wins you \
            logged (and the three you starred, or the most recent), the habit days done of those due, the \
            streaks still running and the habits paused, the rejections you logged and felt okay again \
            about with your resilience score, your swaps and the swap streak, the challenges you did. Each \
            figure is the plugin's own, as its commands count it. The week runs Monday to Sunday; this \
            week by default, so far.

            With an OpenAI-compatible service in the [ai] section, one paragraph of reflection comes with \
            it, written from these figures only: the words of your wins go with them only when \
            [plugins.review] share_notes = true. --offline leaves it out.

            --pdf FILE (or --html FILE) writes the same as a one-page reflection with a chart, to keep or \
            print.

            Exits 0 (also for a week with nothing in it); 64 for a week that cannot be read or has not \
            begun; 1 when the file cannot be written.
            """)

    @OptionGroup var global: GlobalOptions

    /// The command as parsed from no arguments.
    public init() {}

    @Option(help: ArgumentHelp("The week, such as 2026-W48; this week when left out.", valueName: "YYYY-Www"))
    var week: String?

    @Option(help: ArgumentHelp("Write the week as a one-page web page to this file.", valueName: "file"))
    var html: String?

    @Option(help: ArgumentHelp("Write the week as a one-page PDF to this file.", valueName: "file"))
    var pdf: String?

    @Flag(help: "Print JSON instead of text.")
    public var json = false

    @Flag(help: "Leave out the AI service's reflection, even when one is set up.")
    var offline = false

    @Option(
        help: ArgumentHelp(
            "Turn the weekly notice on (Sundays at 18:00) or off; [plugins.review] at sets another time.",
            valueName: "on|off"))
    var weekly: String?

    public func validate() throws {
        if let weekly, !["on", "off"].contains(weekly.lowercased()) {
            throw ValidationError("--weekly \"\(weekly)\" is neither on nor off; such as --weekly on")
        }
        if weekly != nil && (self.week != nil || json || pdf != nil || html != nil) {
            throw ValidationError("--weekly goes alone: it turns the weekly notice on or off.")
        }
        if json && (pdf != nil || html != nil) {
            throw ValidationError("--json prints the week; --pdf and --html write it to a file. Choose one.")
        }
    }

    public func run() async throws {
        if let weekly {
            try Self.turnWeekly(on: weekly.lowercased() == "on", configFile: global.configFile)
            return
        }
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let environment = CommandEnvironment.terminal(session: session)
        let today = LocalDate(instant: Date(), in: environment.timeZone)
        let chosen = try Self.week(week, today: today)
        let (loaded, ignored) = try session.loadConfigurationLeniently(plugins: installedPlugins)
        for line in ignored { warn(TerminalText.safe(line, multiline: true)) }
        var areas: [WeekReview] = []
        for plugin in installedPlugins
        where loaded.enabledPlugins.contains(plugin.name)
            && plugin.offeredCommands.contains(where: { $0.name == WeekReview.commandName })
        {
            let invocation = CommandInvocation(
                command: WeekReview.commandName, values: ["week": [chosen.description]], json: true,
                environment: environment)
            // A runner hosts one plugin when no hoorayd runs: one each.
            let runner = PluginCommandRunner(session: session, plugins: installedPlugins)
            do {
                let (reply, _) = try await runner.run(invocation, plugin: plugin.name, writes: false)
                let parts = try reply.json?.decode([WeekReview].self) ?? []
                if parts.allSatisfy({ $0.figures.allSatisfy(\.isSound) }) {
                    areas += parts
                } else {
                    warn(
                        "hooray review: the \(plugin.name) plugin's part is left out: it gave a figure that is not a "
                            + "count (below 0, not a number, or over a trillion)")
                }
            } catch let failure as PluginCommandFailed {
                warn(
                    "hooray review: the \(plugin.name) plugin's part is left out: \(TerminalText.safe(failure.message))"
                )
            } catch {
                warn(
                    "hooray review: the \(plugin.name) plugin's part is left out: its figures could not be read (\(error))"
                )
            }
            await runner.stopHostedPlugins()
        }
        var report = WeekReport(week: chosen, today: today, areas: Self.ordered(areas))
        if !offline { report.reflection = await WeekReflection.ask(report, loaded: loaded, paths: session.paths) }
        for (file, write) in [(pdf, WeekPDF.write), (html, { Self.write($0.html, to: $1) })] {
            guard let file else { continue }
            let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
            if let problem = write(report, path) {
                warn(
                    "hooray review: cannot write \(UserPaths.shown(path)): \(problem). Nothing was written; choose a "
                        + "file in a folder you can write to, such as --\(file == pdf ? "pdf ~/week.pdf" : "html ~/week.html")."
                )
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            print("Wrote your week \(chosen) to \(UserPaths.shown(path)).")
        }
        if pdf != nil || html != nil { return }
        if json {
            print(try TerminalJSON.text(report))
        } else {
            print(report.text)
        }
    }

    /// The weekly notice's time when `--weekly on` turns it on.
    static let weeklyDefault = "sun 18:00"

    /// `--weekly on|off`: writes `[plugins.review] at` in the user's file, as `hooray config set`
    /// does (comments kept, checked first), and has a running hoorayd reload.
    static func turnWeekly(on: Bool, configFile: String?) throws {
        let label = "hooray review --weekly"
        let (outcome, _) = try ConfigEditing.run(label) { () throws(ConfigEditRefusal) in
            let editor = try ConfigEditing.editor(configFile: configFile)
            return try editor.set(["plugins", "review", "at"], typed: on ? "\"\(weeklyDefault)\"" : "\"off\"")
        }
        let file = UserPaths.shown(outcome.file)
        if on {
            print(
                "The weekly review notice is on: Sundays at 18:00, a calm note that `hooray review` has your week. "
                    + "`hooray review --weekly off` turns it off; [plugins.review] at in \(file) sets another day "
                    + "or time, such as \"fri 17:30\".")
        } else {
            print("The weekly review notice is off. `hooray review` still shows your week whenever you like.")
        }
        if let later = outcome.overriddenBy {
            warn(
                "Note: \(UserPaths.shown(later)) sets plugins.review.at too, and is read later, so its value is the one used."
            )
        }
        guard outcome.changed else { return }
        try ConfigEditing.reloadDaemon(label: label, configFile: configFile)
    }

    /// The areas in the order of a week lived: wins, habits, swaps, recovery, challenges, then
    /// any other plugin's.
    static func ordered(_ areas: [WeekReview]) -> [WeekReview] {
        let order = ["Wins", "Habits", "Swaps", "Rejection recovery", "Challenges"]
        return areas.enumerated().sorted { lhs, rhs in
            let left = order.firstIndex(of: lhs.element.area) ?? order.count
            let right = order.firstIndex(of: rhs.element.area) ?? order.count
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The week asked for: `--week`, or the one `today` is in.
    ///
    /// - Throws: `ValidationError` (exit 64) for a week that cannot be read or has not begun.
    static func week(_ text: String?, today: LocalDate) throws -> ISOWeek {
        let current = ISOWeek(containing: today)
        guard let text else { return current }
        let week: ISOWeek
        do {
            week = try ISOWeek.parse(text)
        } catch {
            throw ValidationError("--week: \(error).")
        }
        guard week <= current else {
            throw ValidationError(
                "--week \(week) has not begun yet (it starts on \(week.monday.written(today: today))); this week is "
                    + "\(current). Leave --week out for this week so far.")
        }
        return week
    }

    /// Writes a file whole or not at all: into a new file beside it, then renamed over it.
    ///
    /// - Returns: Why it could not be written, in a few words, or `nil`.
    static func write(_ text: String, to path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.hooray-review-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return String(cString: strerror(errno)).lowercased() }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let problem = String(cString: strerror(errno)).lowercased()
                close(descriptor)
                unlink(temporary)
                return problem
            }
            offset += count
        }
        let synced = fsync(descriptor) == 0
        let syncError = errno
        let closed = close(descriptor) == 0
        guard synced, closed, rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(synced ? errno : syncError)).lowercased()
            unlink(temporary)
            return problem
        }
        return nil
    }
}
