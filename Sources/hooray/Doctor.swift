import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayCommands
import HoorayConfig
import HoorayDelivery
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

/// `hooray doctor`: checks everything between a reminder and the screen, one line each, with the fix.
struct Doctor: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Check why nothing shows: the bus, the notification server, hoorayd, the configuration and more.",
        discussion: """
            Checks the session bus, the notification server (name, version, buttons, body markup, \
            persistence), do-not-disturb, whether hoorayd runs and matches this hooray's version, the \
            systemd user service, the configuration, plugins in other languages held for new permissions, \
            the database (PRAGMA quick_check), the time zone and, \
            when [ai] is configured, the AI service (one short request). Each line starts with ✓ (fine, \
            with advice where there is some) or ✗ (a problem, with its fix).

            Exits 0 when nothing is ✗, and 1 otherwise (with --json too).
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        var checks: [DoctorCheck] = []
        checks += await desktopChecks(session)
        checks.append(daemonCheck(session))
        checks.append(serviceCheck())
        let (configurationCheck, configuration) = self.configurationCheck(session)
        checks.append(configurationCheck)
        if let pluginsCheck = await pluginsCheck(session) { checks.append(pluginsCheck) }
        checks.append(Self.sandboxCheck(configuration, installed: !pluginCatalog.external.isEmpty))
        checks.append(await databaseCheck(session))
        checks.append(timeZoneCheck(session))
        if let configuration, configuration.ai.provider != .off {
            checks.append(await aiCheck(session, configuration))
        }

        if json {
            print(try Output.json(checks))
        } else {
            for check in checks { print(check.line) }
            let failed = checks.filter { $0.status == .failed }.count
            print(
                failed == 0
                    ? "\nAll is well: reminders can reach your screen."
                    : "\n\(failed) problem\(failed == 1 ? "" : "s") found; \(failed == 1 ? "the fix is on its" : "the fix is on each") ✗ line."
            )
        }
        if checks.contains(where: { $0.status == .failed }) { throw ExitCode.failure }
    }

    // MARK: The desktop

    /// The session bus, the notification server and its capabilities, and do-not-disturb.
    func desktopChecks(_ session: CLISession) async -> [DoctorCheck] {
        let (server, doNotDisturb) = await session.probeDesktop()
        let waitInInbox = "notices wait in `hooray inbox` meanwhile"
        switch server {
        case .unavailable(let reason) where reason.hasPrefix("Cannot connect to the D-Bus session bus"):
            return [
                .failed(
                    "session bus", TerminalText.safe(reason),
                    fix: "log in to a graphical session, or run hoorayd under `dbus-run-session`; \(waitInInbox)"),
                .failed(
                    "notification server", "cannot be reached without a session bus",
                    fix: "start the session bus first, as the line above says"),
            ]
        case .unavailable(let reason):
            return [
                .ok("session bus", "connected"),
                .failed(
                    "notification server", "none: " + TerminalText.safe(reason),
                    fix: "start a notification server such as dunst or mako, or your desktop's own; \(waitInInbox)"),
            ]
        case .timedOut:
            return [
                .ok("session bus", "connected"),
                .failed(
                    "notification server", "it owns the name on the bus but did not answer in time",
                    fix: "restart your notification server (for dunst: `killall dunst`, it starts again when needed); "
                        + waitInInbox),
            ]
        case .available(let info):
            var checks: [DoctorCheck] = [
                .ok("session bus", "connected"),
                .ok(
                    "notification server",
                    TerminalText.safe(
                        "\(info.name) \(info.version) by \(info.vendor) (specification \(info.specVersion))")),
            ]
            checks.append(
                info.supportsActions
                    ? .ok("buttons", "shown (the server offers actions)")
                    : .warning(
                        "buttons", "this server shows no buttons",
                        fix:
                            "press them from the terminal: `hooray inbox --all` lists them, `hooray act ID ACTION` presses one"
                    ))
            checks.append(
                .ok(
                    "body markup",
                    info.readsBodyMarkup
                        ? "read by the server, so text is escaped and shown as typed" : "not read; text is sent plain"))
            checks.append(
                info.capabilities.contains("persistence")
                    ? .ok("persistence", "the server keeps notifications until you look")
                    : .warning(
                        "persistence", "the server keeps no notifications once they leave the screen",
                        fix: "notices you missed stay readable with `hooray inbox --all`"))
            checks.append(Self.doNotDisturbCheck(doNotDisturb))
            return checks
        }
    }

    static func doNotDisturbCheck(_ state: DoNotDisturb) -> DoctorCheck {
        let source = state.source.map { " (\(TerminalText.safe($0)))" } ?? ""
        guard state.isOn else { return .ok("do not disturb", "off\(source)") }
        let howToEnd =
            switch state.source {
            case "dunst": "`dunstctl set-paused false` ends it"
            case "KDE": "turn off Do Not Disturb in Plasma's notification area to end it"
            case "GNOME": "`gsettings set org.gnome.desktop.notifications show-banners true` ends it"
            case "mako": "`makoctl mode -r do-not-disturb` ends it"
            default: "turn it off in your notification server to end it"
            }
        return .warning(
            "do not disturb", "on\(source) — notices that are not urgent wait in `hooray inbox` until it ends",
            fix: howToEnd)
    }

    // MARK: The plugins' sandbox

    /// Whether plugins in other languages can run in their sandbox (bubblewrap and user namespaces).
    static func sandboxCheck(_ configuration: DaemonConfiguration?, installed: Bool) -> DoctorCheck {
        guard case .unavailable(let reason, let fix) = PluginSandbox.availability else {
            return .ok("plugin sandbox", "plugins in other languages run in bubblewrap, each with its own folders only")
        }
        if configuration?.loaded.allowsUnsandboxedPlugins == true {
            return .warning(
                "plugin sandbox",
                "\(reason); plugins in other languages run WITHOUT a sandbox (allow_unsandboxed = true in hooray.toml) "
                    + "and can read all your files", fix: fix)
        }
        guard installed else {
            return .warning(
                "plugin sandbox", "\(reason); no plugin in another language is installed, so none is held back",
                fix: fix)
        }
        return .failed(
            "plugin sandbox", "\(reason), so plugins in other languages are not started",
            fix: fix + " (or, knowing they can then read all your files, allow_unsandboxed = true under [plugins])")
    }

    // MARK: hoorayd

    func daemonCheck(_ session: CLISession) -> DoctorCheck {
        let start = "start it with `systemctl --user start hooray` (or `make run` in a source checkout)"
        switch session.daemonStatus() {
        case (false, _):
            return .failed("hoorayd", "not running, so no reminder is shown", fix: start)
        case (true, nil):
            return .failed(
                "hoorayd", "running, but it did not answer in time",
                fix: "try again shortly; if it stays stuck, `systemctl --user restart hooray`")
        case (true, let status?):
            guard status.version == HoorayVersion.current else {
                return .failed(
                    "hoorayd",
                    "running version \(TerminalText.safe(status.version)), but this hooray is \(HoorayVersion.current)",
                    fix: "restart it so both match: `systemctl --user restart hooray`")
            }
            return .ok("hoorayd", "running (pid \(status.pid), version \(status.version))")
        }
    }

    /// The systemd user service: advice only, since hoorayd may run by hand.
    func serviceCheck() -> DoctorCheck {
        let output = Self.runBriefly(
            "systemctl", ["--user", "show", "hooray.service", "--property=LoadState,ActiveState,UnitFileState"])
        guard let output, output.status == 0 else {
            return .warning(
                "systemd user service", "no systemd user instance answers",
                fix: "run hoorayd another way, such as from your desktop's autostart")
        }
        var properties: [String: String] = [:]
        for line in output.text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { properties[String(parts[0])] = String(parts[1]) }
        }
        guard properties["LoadState"] == "loaded" else {
            return .warning(
                "systemd user service", "hooray.service is not installed",
                fix: "install the hooray package for it, or keep starting hoorayd by hand")
        }
        let enabled = properties["UnitFileState"] == "enabled"
        switch properties["ActiveState"] {
        case "active":
            return enabled
                ? .ok("systemd user service", "hooray.service is active and starts with your session")
                : .warning(
                    "systemd user service", "hooray.service is active, but does not start with your session",
                    fix: "`systemctl --user enable hooray`")
        case "failed":
            return .failed(
                "systemd user service", "hooray.service failed",
                fix: "see why with `journalctl --user -u hooray -n 20`, then `systemctl --user restart hooray`")
        default:
            return .warning(
                "systemd user service", "hooray.service is installed but not running",
                fix: "`systemctl --user enable --now hooray`")
        }
    }

    /// Runs a program found on `PATH` for at most five seconds, and returns its status and standard
    /// output; `nil` when it could not be started or did not finish in time.
    static func runBriefly(_ program: String, _ arguments: [String]) -> (status: Int32, text: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        // A few short lines: they fit in the pipe while the program runs.
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            return nil
        }
        let data = (try? pipe.fileHandleForReading.readToEnd()) ?? nil
        return (process.terminationStatus, String(decoding: data ?? Data(), as: UTF8.self))
    }

    // MARK: Files

    func configurationCheck(_ session: CLISession) -> (DoctorCheck, DaemonConfiguration?) {
        let report = ConfigurationLoader.check(
            file: nil, configFile: session.configFile, environment: session.environment, plugins: installedPlugins)
        let loaded = try? session.loadConfigurationLeniently(plugins: installedPlugins).configuration
        let errors = report.diagnostics.errors
        if !errors.isEmpty {
            let first = Self.oneLine(errors[0].description)
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            return (
                .failed(
                    "configuration", first + more,
                    fix: "correct it, then `hooray config check` (hoorayd keeps its last good configuration meanwhile)"),
                loaded
            )
        }
        let files = report.files.isEmpty ? "no file; the defaults apply" : report.files.joined(separator: ", ")
        let warnings = report.diagnostics.warnings
        if !warnings.isEmpty {
            return (
                .warning(
                    "configuration", Self.oneLine(warnings[0].description),
                    fix: "see every warning with `hooray config check`"),
                loaded
            )
        }
        return (.ok("configuration", TerminalText.safe(files)), loaded)
    }

    /// A message that may span lines (such as a configuration error and its hint), as one safe line.
    static func oneLine(_ text: String) -> String {
        TerminalText.safe(
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))
    }

    func databaseCheck(_ session: CLISession) async -> DoctorCheck {
        let path = session.paths.database
        guard FileManager.default.fileExists(atPath: path) else {
            return .ok("database", "none yet; it is made when first needed")
        }
        do throws(StorageError) {
            let database = try HoorayDatabase(path: path)
            try await database.quickCheck()
            return .ok("database", "\(TerminalText.safe(path)) passes quick_check")
        } catch {
            let fix = error.fix.map { "`\($0)`" } ?? "see the message"
            return .failed("database", Self.oneLine(error.description), fix: fix)
        }
    }

    func timeZoneCheck(_ session: CLISession) -> DoctorCheck {
        let system = SystemTimeZone(environment: session.environment)
        if let tz = session.environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            guard TimeZone(identifier: name) != nil else {
                return .failed(
                    "time zone", "TZ=\(TerminalText.safe(tz)) is not a time zone name I know",
                    fix: "set TZ to a name such as Europe/Berlin, or unset it to use the system's")
            }
        }
        let zone = system.current()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        let source = system.isPinnedByEnvironment ? "from TZ" : "the system's"
        return .ok("time zone", "\(zone.identifier), \(source); it is \(formatter.string(from: Date())) there")
    }

    func aiCheck(_ session: CLISession, _ configuration: DaemonConfiguration) async -> DoctorCheck {
        let ai = configuration.ai
        let endpoint = TerminalText.safe(ai.endpoint?.absoluteString ?? "no endpoint")
        switch await session.askAIOnce(ai, identityStore: configuration.identityStore) {
        case .success:
            return .ok("AI service", "\(ai.provider.rawValue) at \(endpoint) answered")
        case .failure(let error):
            return .failed(
                "AI service", "\(ai.provider.rawValue) at \(endpoint): " + TerminalText.safe("\(error)"),
                fix: AIAdvice.fix(for: error))
        }
    }
}

/// One line of `hooray doctor`: the `doctorCheck` type of docs/json.md.
struct DoctorCheck: Encodable {
    /// ✓ (`ok`, and `warning`: fine, with advice) or ✗ (`failed`).
    enum Status: String, Encodable {
        case ok, warning, failed
    }

    let check: String
    let status: Status
    let detail: String
    let fix: String?

    static func ok(_ check: String, _ detail: String) -> Self {
        DoctorCheck(check: check, status: .ok, detail: detail, fix: nil)
    }

    static func warning(_ check: String, _ detail: String, fix: String) -> Self {
        DoctorCheck(check: check, status: .warning, detail: detail, fix: fix)
    }

    static func failed(_ check: String, _ detail: String, fix: String) -> Self {
        DoctorCheck(check: check, status: .failed, detail: detail, fix: fix)
    }

    /// `✓ Notification server: dunst 1.9.0 …` or `✗ hoorayd: not running … Fix: …`.
    var line: String {
        let mark =
            switch status {
            case .ok, .warning: "✓"
            case .failed: "✗"
            }
        // Program names keep their lower case.
        let name =
            ["hoorayd", "systemd user service"].contains(check)
            ? check : check.prefix(1).uppercased() + check.dropFirst()
        let text = "\(mark) \(name): \(detail)"
        guard let fix else { return text }
        let ended = detail.hasSuffix(".") ? text : text + "."
        return ended + (status == .failed ? " Fix: " : " ") + fix.prefix(1).uppercased() + fix.dropFirst()
            + (fix.hasSuffix(".") ? "" : ".")
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(check, forKey: .check)
        try container.encode(status, forKey: .status)
        try container.encode(detail, forKey: .detail)
        try container.encode(fix, forKey: .fix)
    }

    enum CodingKeys: String, CodingKey { case check, status, detail, fix }
}
