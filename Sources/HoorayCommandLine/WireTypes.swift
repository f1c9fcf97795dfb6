import Foundation
import HoorayClient

// What a command and a bar item are on the wire between `hooray` and `hoorayd` is HoorayClient's
// (one type per shape, checked against docs/protocol.md there); the plugin API names the same
// types, so a plugin writes `CommandReply` and `BarItem` and never imports HoorayClient.

/// A command as the user gave it, parsed against its ``CommandSpec``.
public typealias CommandInvocation = HoorayClient.CommandInvocation
/// Where a command was given: the user's time zone, terminal and folder.
public typealias CommandEnvironment = HoorayClient.CommandEnvironment
/// What a command answers: text for people, JSON for scripts.
public typealias CommandReply = HoorayClient.CommandReply
/// Timed steps `hooray` plays in the user's terminal (`CommandReply.guide`).
public typealias TerminalGuide = HoorayClient.TerminalGuide
/// A table a command asks `hooray` to add to the user's own configuration file.
public typealias ConfigurationEntry = HoorayClient.ConfigurationEntry
/// A plugin's part of the status-bar line that `hooray bar` prints.
public typealias BarItem = HoorayClient.BarItem
/// A current streak shown in the status bar: how many days, and of what.
public typealias BarStreak = HoorayClient.BarStreak
/// How much of what is due today is done, for the status bar's percentage.
public typealias BarProgress = HoorayClient.BarProgress

extension CommandEnvironment {
    /// The user's time zone; the current one when the identifier is unknown.
    public var timeZone: TimeZone {
        TimeZone(identifier: timeZoneIdentifier) ?? .current
    }
}
