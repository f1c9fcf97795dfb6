import ArgumentParser
import BuiltInPlugins
import Foundation
import HoorayClient
import HoorayDaemon
import HoorayEngine
import HoorayKit
import HoorayThreads

/// hoorayd's entry point: its own executor first, so that no task ever runs on Dispatch's worker
/// pool (whose monitor would wake an idle hoorayd once a second), then the command on a task while
/// the main thread serves the main actor.
@main
enum HoorayDaemonMain {
    static func main() {
        DaemonExecutor.install()
        Task {
            await HoorayDaemon.main(ProcessArguments.current())
            exit(0)
        }
        DaemonExecutor.runMainThread()
    }
}

struct HoorayDaemon: AsyncParsableCommand {

    static let configuration = CommandConfiguration(
        commandName: "hoorayd",
        abstract: "The Hooray scheduler: shows your reminders as desktop notifications.",
        discussion: """
            hoorayd runs in the foreground, normally as the systemd user service hooray.service. It \
            reads the configuration (/etc/hooray/hooray.toml, $XDG_CONFIG_HOME/hooray/hooray.toml — \
            ~/.config/hooray by default — and their conf.d/*.toml drop-ins; `hooray config path` lists \
            them), keeps its data in $XDG_DATA_HOME/hooray/ (~/.local/share/hooray/ by default), and delivers through \
            the desktop's notification server. Without one, notices wait in `hooray inbox`.

            A fresh install is calm: the one-time welcome and nothing else. A plugin's daily notices \
            start when you first use it, and that first use says what it scheduled and how to turn it \
            off; switching them on in the plugin's [plugins.NAME] section starts them at once, and \
            switching them off there always comes first (docs/calm-delivery.md).

            Signals: SIGHUP reloads the configuration (a broken one is reported and the last good one \
            kept); SIGTERM or SIGINT stop it cleanly. Only one hoorayd runs per data folder.

            Its control socket is in $XDG_RUNTIME_DIR/hooray; without XDG_RUNTIME_DIR, in \
            ${TMPDIR:-/tmp}/hooray-UID, made with mode 0700 and refused when it is a symbolic link, \
            another user's or open to others.

            Exit codes (the table `hooray --help` prints): 0 stopped cleanly, 1 failed, 69 the data or \
            runtime directory cannot be used, 75 another hoorayd is running for the same data, 78 \
            configuration errors or no safe place for its files.
            """,
        version: HoorayVersion.current
    )

    @Option(name: .long, help: ArgumentHelp("Read this configuration file after all others.", valueName: "file"))
    var config: String?

    func run() async throws {
        let exit = await Daemon.run(
            options: DaemonOptions(configFile: config), plugins: BuiltInPlugins.all, version: HoorayVersion.current)
        if exit != .ok { throw ExitCode(exit.rawValue) }
    }
}
