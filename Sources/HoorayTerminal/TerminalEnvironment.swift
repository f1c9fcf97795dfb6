import Foundation
import HoorayBasics
import HoorayCLIHost
import HoorayClient
import HoorayCommands

extension CommandEnvironment {
    /// What a plugin's command is told of the terminal it runs from: the time zone, whether to
    /// colour (a terminal, neither `NO_COLOR` nor `TERM=dumb` nor `--no-color`), the data folder.
    public static func terminal(session: CLISession) -> CommandEnvironment {
        let variables = session.environment
        let color =
            isatty(STDOUT_FILENO) == 1 && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
            && !GlobalArguments.current.noColor
        return CommandEnvironment(
            timeZoneIdentifier: SystemTimeZone(environment: variables).current().identifier, color: color,
            dataDirectory: session.paths.dataDirectory, hostVersion: HoorayVersion.current)
    }
}
