import ArgumentParser
import Foundation
import HoorayCommands

/// A command that prints JSON with `--json`; the global `--json` turns it on.
public protocol OffersJSON {
    var json: Bool { get set }
}

/// `--config FILE` and `--no-color` as every one of `hooray`'s own commands shows them in its help
/// and completes them; their values are read from ``GlobalArguments/current``.
public struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Read this configuration file after all others.", valueName: "file"),
        completion: .file(extensions: ["toml"]))
    public var config: String?

    @Flag(name: .customLong("no-color"), help: "Print no colours, as NO_COLOR=1 does.")
    public var noColor = false

    /// The configuration file given with `--config`, before or after the command's name.
    public var configFile: String? { GlobalArguments.current.config }

    /// Options as parsed from no arguments.
    public init() {}
}
