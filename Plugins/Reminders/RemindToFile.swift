import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayText

/// `hooray remind add … --to-file`: the reminder as a `[[plugins.reminders.reminder]]` of the user's
/// hooray.toml, which `hooray` writes (keeping the file's comments) and the user can then change by hand.
extension RemindersPlugin {
    static let toFileFlag = CommandSpec.Flag(
        name: "to-file",
        help: "Write it as a [[plugins.reminders.reminder]] in your hooray.toml, to change there by hand, "
            + "instead of keeping it with `hooray remind`; it must repeat (--at, with --days or --every).",
        savesNothing: true)

    /// The reply that asks `hooray` to add the reminder to the file: the keys the file's reminders take,
    /// each as typed, so the entry reads as the user would have written it.
    ///
    /// - Throws: ``PluginCommandError`` for what a reminder in the file cannot be: a one-off, or one
    ///   without a time of day.
    static func fileEntry(_ options: RemindOptions, _ command: CommandInvocation, today: LocalDate) throws
        -> CommandReply
    {
        if command.json {
            throw PluginCommandError.invalidValue("--to-file", "--to-file prints no JSON; leave out --json")
        }
        if options.on != nil || options.inSeconds != nil {
            let option = options.on != nil ? "--on" : "--in"
            throw PluginCommandError.invalidValue(
                option,
                "\(option) makes a one-off, and a reminder in hooray.toml repeats; leave out --to-file "
                    + "(`hooray remind` keeps one-offs), or give --at with --days or --every")
        }
        guard let at = options.at else {
            throw PluginCommandError.invalidValue(
                "--at", "--to-file needs a time of day, such as --at 18:00 (every day unless --days or --every)")
        }
        let title = options.title ?? ""
        var keys = [ConfigurationEntry.Key("title", .string(title))]
        if let body = options.body, !body.isEmpty { keys.append(.init("body", .string(body))) }
        keys.append(.init("at", .string("\(at)")))
        var when = "every day at \(at)"
        if let days = command.value("days")?.trimmingCharacters(in: .whitespaces) {
            keys.append(.init("days", .string(days)))
            when = "\(days) at \(at)"
        }
        if let every = command.value("every")?.trimmingCharacters(in: .whitespaces) {
            // From today, as `hooray remind --every` counts.
            keys.append(.init("every", .string(every)))
            keys.append(.init("start", .string("\(today)")))
            when = "every \(every) from \(today) at \(at)"
        }
        if let zone = options.zone {
            keys.append(.init("zone", .string(zone)))
            when += " (\(zone))"
        }
        return CommandReply(
            text: "\(TerminalText.safe(title)), \(when).",
            configurationEntry: ConfigurationEntry(table: "reminder", keys: keys))
    }
}
