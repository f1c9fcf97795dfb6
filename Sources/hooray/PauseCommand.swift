import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommandLine
import HoorayCommands
import HoorayEngine
import HoorayKit
import HoorayTerminal

/// `hooray pause`: the notifications of reminders wait for a while, as in quiet hours.
struct Pause: AsyncParsableCommand, OffersJSON {
    static let configuration = CommandConfiguration(
        abstract: "Pause the notifications of reminders for a while (an hour by default).",
        discussion: """
            While notifications are paused, reminders wait in `hooray inbox` and come when the pause \
            ends, several together in one notification; what answers a command of yours (a win's praise) is \
            still shown, and so is an urgent notice. The pause outlasts a restart of hoorayd. \
            `hooray status`, `hooray bar` and the tray say until when it lasts.

            Examples:
              hooray pause            (an hour)
              hooray pause 30m
              hooray pause tomorrow   (until 08:00 tomorrow; before 05:00, until 08:00 today)
              hooray pause off        (notifications again, now)

            Exits 64 for a length it does not read or one over 7 days, 69 when hoorayd is not running, \
            75 when it is too busy to answer.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "How long: a length such as 30m, 1h or 2h30m (at most 7d), tomorrow, or off to end the pause.",
            valueName: "length"))
    var length = "1h"

    @Flag(help: "Print JSON: {\"paused_until\": \"…\"}, null when not paused.")
    var json = false

    func run() async throws {
        let now = Date()
        let until: Date?
        do {
            until = try Self.end(of: length, now: now, timeZone: .current)
        } catch let refusal as PluginCommandError {
            warn("hooray pause: \(refusal.message)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        let response = try CLISession(configFile: GlobalArguments.current.config).answer(
            .pause(until: until), for: "hooray pause",
            notRunning:
                "hoorayd is not running, so nothing is shown to pause; `systemctl --user start hooray` starts it.")
        guard response.ok else {
            warn("hooray pause: \(response.message ?? "hoorayd did not pause notifications")")
            throw ExitCode(response.invalidValue != nil ? ExitStatus.usage.rawValue : ExitStatus.failed.rawValue)
        }
        if json {
            struct Answer: Encodable {
                let pausedUntil: Date?
                enum CodingKeys: String, CodingKey { case pausedUntil = "paused_until" }
                func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(pausedUntil, forKey: .pausedUntil)
                }
            }
            print(try Output.json(Answer(pausedUntil: response.pausedUntil)))
        } else if let end = response.pausedUntil {
            print(
                "Notifications are paused until \(Output.when(end, now: now)). Reminders wait until then; `hooray pause off` ends it now."
            )
        } else {
            print("Notifications are on again. What waited is shown now.")
        }
    }

    /// When a pause of `text` that starts at `now` ends; `nil` for `off`.
    ///
    /// - Throws: `PluginCommandError` naming the length when it is not one, or is over 7 days.
    static func end(of text: String, now: Date, timeZone: TimeZone) throws -> Date? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "off", "end", "resume", "no", "0": return nil
        case "tomorrow", "until tomorrow": return PauseLength.untilTomorrow.end(from: now, in: timeZone)
        default:
            let input = TimeInput(now: now, timeZone: timeZone)
            let seconds = try input.seconds(text, option: "LENGTH", minimum: 60)
            guard TimeInterval(seconds) <= Engine.longestPause else {
                throw TimeInput.refusal(
                    "LENGTH", text, "is longer than 7 days",
                    "give at most 7d; to stop a plugin's notifications for longer, turn it off in its [plugins.NAME] section"
                )
            }
            return PauseLength.seconds(seconds).end(from: now, in: timeZone)
        }
    }
}
