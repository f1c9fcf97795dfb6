import ArgumentParser
import ReviewTerminal
import SwapsTerminal

/// The built-in plugins' commands that `hooray` runs itself, on the terminal, rather than asking the
/// plugin: a conversation streamed as it comes, a page drawn from every plugin's figures. Each lives
/// in its plugin's `Terminal` folder; adding one is adding its line here.
public enum BuiltInTerminal {
    /// The commands, after `hooray`'s own.
    public static let commands: [any ParsableCommand.Type] = [Coach.self, Review.self]
}
