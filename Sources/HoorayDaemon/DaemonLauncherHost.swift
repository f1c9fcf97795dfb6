import Foundation
import HoorayClient
import HoorayDesktopBus
import HoorayEngine
import HoorayKit
import HoorayLauncher
import Logging

/// The launchers' host inside `hoorayd`: each read and each choice is the control request a client
/// would send (the desktop app's, for the same commands), answered by the same handler.
struct DaemonLauncherHost: TrayHost {
    /// Answers one control request, as the control socket's handler does.
    let handle: @Sendable (ControlRequest) async -> ControlResponse
    /// Where the commands are given: the user's time zone and data folder.
    let environment: @Sendable () -> CommandEnvironment

    func checklist() async -> [ChecklistItem]? {
        let list = Launcher.checklistCommand
        let invocation = CommandInvocation(command: list.name, json: true, environment: environment())
        let response = await handle(.command(plugin: list.plugin, invocation: invocation))
        guard response.ok, let json = response.reply?.json else { return nil }
        return try? json.decode([ChecklistItem].self)
    }

    func bar() async -> BarSnapshot? {
        await handle(.bar()).bar
    }

    func run(_ action: LauncherAction) async -> LauncherOutcome {
        guard let command = action.command else { return .done }
        let invocation = CommandInvocation(command: command.name, values: command.values, environment: environment())
        let response = await handle(.command(plugin: command.plugin, invocation: invocation))
        guard response.ok else {
            return .failed(response.message ?? "hoorayd did not say why")
        }
        return .done
    }

    func pause(_ length: TrayPause?) async -> LauncherOutcome {
        let until = length.map { length in
            let zone = TimeZone(identifier: environment().timeZoneIdentifier) ?? .current
            return (length == .hour ? PauseLength.seconds(3600) : .untilTomorrow).end(from: Date(), in: zone)
        }
        let response = await handle(.pause(until: until))
        return response.ok ? .done : .failed(response.message ?? "hoorayd did not say why")
    }
}

extension DaemonLauncherHost {
    /// Puts hoorayd on the session bus for the launchers; what they choose runs as the same control
    /// requests, and what could not be done is said in a notice of the plugin it was for. Stop it
    /// (``DesktopBus/stop(waitingAtMost:)``) before the engine.
    ///
    /// The tray icon follows `feed` while it is shown, and `[delivery] tray` as each reload sets it.
    static func startDesktopBus(
        handle: @escaping @Sendable (ControlRequest) async -> ControlResponse, engine: Engine, state: DaemonState,
        feed: StatusBarFeed, timeZone: SystemTimeZone, paths: HoorayPaths, version: String, logger: Logger
    ) -> DesktopBus {
        let environment: @Sendable () -> CommandEnvironment = {
            CommandEnvironment(
                timeZoneIdentifier: timeZone.current().identifier, dataDirectory: paths.dataDirectory,
                hostVersion: version)
        }
        let trayWanted = { state.configuration.loaded.core.delivery.tray }
        let bus = DesktopBus(
            host: DaemonLauncherHost(handle: handle, environment: environment), tray: trayWanted(),
            trayUpdates: {
                let answers = feed.follow()
                return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
                    let task = Task {
                        for await answer in answers {
                            if let bar = answer.bar { continuation.yield(bar) }
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            },
            tell: { plugin, message in
                let notice = Notice(title: "That was not done", body: "Hooray could not do it: \(message)")
                do {
                    try await engine.noticeBoard(for: plugin).post(notice)
                } catch {
                    logger.warning("a launcher's choice was not done (\(message)), and saying so failed: \(error)")
                }
            }, logger: Logger(label: "launchers"))
        // A reload that turns the tray on or off shows or hides the icon; one that came while the
        // bus was made is read again just after.
        state.watchConfiguration { configuration in bus.setTray(shown: configuration.loaded.core.delivery.tray) }
        bus.setTray(shown: trayWanted())
        bus.start()
        return bus
    }
}
