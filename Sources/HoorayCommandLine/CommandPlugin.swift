import HoorayKit

/// A plugin that offers commands on the command line, as `hooray NAME COMMAND …`.
///
/// Conform to it beside `HoorayKit.HoorayPlugin` when the plugin has commands; a plugin that only
/// schedules reminders and posts notices leaves it out, and `hooray` lists no commands of its.
///
/// ```swift
/// struct WaterPlugin: HoorayPlugin, CommandPlugin {
///     var commands: [CommandSpec] { [CommandSpec(name: "drank", summary: "Log a glass of water")] }
///
///     func run(_ command: CommandInvocation, context: PluginContext, configuration: Configuration)
///         async throws -> CommandReply
///     {
///         CommandReply(text: "Logged.")
///     }
/// }
/// ```
public protocol CommandPlugin: HoorayPlugin {
    /// The commands the plugin offers on the command line, as `hooray NAME COMMAND …` and by
    /// their aliases.
    ///
    /// `hooray` builds its help, man page and shell completions from these, and refuses to start
    /// when two plugins claim the same command or alias.
    var commands: [CommandSpec] { get }

    /// Runs one of the plugin's ``commands``, as the user gave it.
    ///
    /// The same code serves both places a command runs: `hoorayd` when it is running, and otherwise
    /// the `hooray` process itself, which hosts the plugin for that one command with the same kind
    /// of context. Answer quickly — the user is waiting at the terminal — and move slow work, such
    /// as AI requests, to the context's `background`. Throw `PluginCommandError` for bad input:
    /// its message is shown to the user and `hooray` exits with status 1. Validate everything
    /// before storing anything, so a refused command leaves nothing half-saved.
    ///
    /// Write text in the user's time zone, `CommandEnvironment.timeZone`, which may differ from
    /// the daemon's.
    ///
    /// - Parameters:
    ///   - command: The command, parsed: its arguments, options and flags by name.
    ///   - context: The plugin's view of the engine.
    ///   - configuration: The plugin's decoded `[plugins.NAME]` section, as `activate(context:configuration:)` got it.
    /// - Returns: What to show: text, and JSON for `--json`.
    func run(_ command: CommandInvocation, context: PluginContext, configuration: Configuration) async throws
        -> CommandReply
}

/// A plugin that reads other programs' exports, run by `hooray import --from NAME FILE`.
public protocol ImportingPlugin: HoorayPlugin {
    /// The importers the plugin offers for other programs' exports; see ``ImporterSpec``.
    var importers: [ImporterSpec] { get }

    /// Reads another program's export and says which records it would add.
    ///
    /// Read only: `hooray` shows the plan, and adds its records in one transaction when the user
    /// asks with `--apply`. Look at `records` to leave out what is already there.
    ///
    /// - Parameters:
    ///   - request: Which importer, the file or folder, the time and the user's time zone.
    ///   - records: The plugin's stored records, to read.
    /// - Returns: The records to add, with notes for the user.
    /// - Throws: ``ImportError`` naming the file, the line or field, and the fix.
    func planImport(_ request: ImportRequest, records: any RecordStore) async throws -> ImportPlan
}

/// A plugin with a part of the status-bar line that `hooray bar` prints.
public protocol StatusBarPlugin: HoorayPlugin {
    /// The plugin's part of the status-bar line `hooray bar` prints: short texts, tooltip lines, a
    /// current streak and today's progress (see ``BarItem``).
    ///
    /// Called whenever the line may have changed — after a command, a notice, a pressed button —
    /// and at local midnight, by `hoorayd`, or by `hooray bar` itself while `hoorayd` is not
    /// running. Read what is stored and answer quickly; change nothing. Count "today" in the
    /// context's `timeZone`.
    ///
    /// Plugins in other languages contribute nothing to the bar.
    ///
    /// - Parameters:
    ///   - context: The plugin's view of the engine.
    ///   - configuration: The plugin's decoded `[plugins.NAME]` section.
    /// - Returns: The items, in the order they go on the line.
    func barItems(context: PluginContext, configuration: Configuration) async throws -> [BarItem]
}

// What the host asks of any plugin, whichever of these it conforms to. A configuration reaches
// the host with its type erased (each plugin has its own), and is given back typed here.

extension HoorayPlugin {
    /// The plugin's commands: none unless it is a ``CommandPlugin``.
    package var offeredCommands: [CommandSpec] { (self as? any CommandPlugin)?.commands ?? [] }

    /// The plugin's importers: none unless it is an ``ImportingPlugin``.
    package var offeredImporters: [ImporterSpec] { (self as? any ImportingPlugin)?.importers ?? [] }

    /// Runs one of the plugin's commands, with a configuration whose type was erased on its way
    /// through the host; refused when the plugin has no commands.
    package func run(_ command: CommandInvocation, context: PluginContext, erasedConfiguration: any Sendable)
        async throws -> CommandReply
    {
        guard let plugin = self as? any CommandPlugin else {
            throw PluginCommandError("the plugin \(name) has no command \"\(command.command)\"")
        }
        return try await plugin.runTyped(command, context: context, erasedConfiguration: erasedConfiguration)
    }

    /// Plans an import; refused when the plugin has no importers.
    package func planOfferedImport(_ request: ImportRequest, records: any RecordStore) async throws -> ImportPlan {
        guard let plugin = self as? any ImportingPlugin else {
            throw ImportError("the plugin \(name) has no importer \"\(request.importer)\"")
        }
        return try await plugin.planImport(request, records: records)
    }

    /// The plugin's bar items, with a configuration whose type was erased on its way through the
    /// host: none unless it is a ``StatusBarPlugin``.
    package func barItems(context: PluginContext, erasedConfiguration: any Sendable) async throws -> [BarItem] {
        guard let plugin = self as? any StatusBarPlugin else { return [] }
        return try await plugin.barItemsTyped(context: context, erasedConfiguration: erasedConfiguration)
    }
}

extension CommandPlugin {
    fileprivate func runTyped(_ command: CommandInvocation, context: PluginContext, erasedConfiguration: any Sendable)
        async throws -> CommandReply
    {
        try await run(command, context: context, configuration: typedConfiguration(erasedConfiguration))
    }
}

extension StatusBarPlugin {
    fileprivate func barItemsTyped(context: PluginContext, erasedConfiguration: any Sendable) async throws
        -> [BarItem]
    {
        try await barItems(context: context, configuration: typedConfiguration(erasedConfiguration))
    }
}
