import FoundationEssentials

// A plugin's command on the wire: what `hooray` sends (`invocation`) and what the plugin answers
// (`reply`), as docs/protocol.md describes them. HoorayKit, the plugin API, names these same types
// (a typealias each), so plugins write them as before; the conveniences that need the whole of
// Foundation (a zone's `TimeZone`) are HoorayKit's extensions.

/// A command as the user gave it, parsed against its ``CommandSpec``.
public struct CommandInvocation: Sendable, Hashable, Codable {
    /// The command's name within the plugin.
    public var command: String
    /// The values of the arguments and options given, by name, in the order given. Paths are absolute.
    public var values: [String: [String]]
    /// The flags given.
    public var flags: Set<String>
    /// Whether the user asked for `--json`.
    public var json: Bool
    /// Where the command was given: the user's time zone, terminal and folder.
    public var environment: CommandEnvironment

    /// Creates an invocation; `hooray` makes these, and tests do.
    ///
    /// - Parameters:
    ///   - command: The command's name within the plugin.
    ///   - values: Values of arguments and options, by name.
    ///   - flags: The flags given.
    ///   - json: Whether `--json` was given.
    ///   - environment: Where the command was given.
    public init(
        command: String, values: [String: [String]] = [:], flags: Set<String> = [], json: Bool = false,
        environment: CommandEnvironment = CommandEnvironment()
    ) {
        self.command = command
        self.values = values
        self.flags = flags
        self.json = json
        self.environment = environment
    }

    /// The value of an argument or option, or `nil` when it was not given; the last when repeated.
    public func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// Every value of a repeating argument or option, in order.
    public func values(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// Whether a flag was given.
    public func flag(_ name: String) -> Bool {
        flags.contains(name)
    }
}

/// Where a command was given: what the plugin needs to answer the way the user's terminal expects,
/// even when `hoorayd` runs it.
public struct CommandEnvironment: Sendable, Hashable, Codable {
    /// The user's time zone identifier, such as `Europe/Paris`.
    public var timeZoneIdentifier: String
    /// Whether the reply may use terminal colours (a terminal, and `NO_COLOR` unset).
    public var color: Bool
    /// The folder where Hooray keeps what the user logs, for commands that tell where things are.
    public var dataDirectory: String
    /// The version of Hooray running the command, such as `0.3.0`.
    public var hostVersion: String

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - timeZoneIdentifier: The user's time zone; the current one by default.
    ///   - color: Whether colours may be used.
    ///   - dataDirectory: Where Hooray keeps what the user logs.
    ///   - hostVersion: The version of Hooray.
    public init(
        timeZoneIdentifier: String = TimeZone.current.identifier, color: Bool = false, dataDirectory: String = "",
        hostVersion: String = ""
    ) {
        self.timeZoneIdentifier = timeZoneIdentifier
        self.color = color
        self.dataDirectory = dataDirectory
        self.hostVersion = hostVersion
    }

    enum CodingKeys: String, CodingKey {
        case color
        case timeZoneIdentifier = "time_zone"
        case dataDirectory = "data_directory"
        case hostVersion = "host_version"
    }
}

/// What a command answers: text for people, JSON for scripts.
public struct CommandReply: Sendable, Hashable, Codable {
    /// What `hooray` prints on standard output without `--json`; may be empty.
    public var text: String
    /// What `hooray` prints with `--json`.
    public var json: JSONValue?
    /// Lines for standard error: notes the user should see even with `--json`.
    public var warnings: [String]
    /// A hidden command of the same plugin that `hooray` runs once the plugin's background work has
    /// finished, when it hosted the plugin itself because no `hoorayd` was running — to print what
    /// that work did, such as the AI's praise. The daemon's replies leave it out.
    public var followUp: CommandInvocation?
    /// Text for the user's clipboard, such as a response template the user asked to copy; `nil` for none.
    ///
    /// A command may run in `hoorayd`, which is not in the user's desktop session, so the plugin
    /// never copies itself: `hooray`, after printing the reply, hands this text to `wl-copy`
    /// (Wayland) or `xclip` (X11) in the user's own environment and says which it used. When neither
    /// can be used it says why and how to install one, and exits with status 1; the reply's text
    /// should then show what was to be copied, so that the user can copy it by hand.
    public var clipboard: String?
    /// A guide `hooray` plays in the user's terminal after printing the reply, such as a breathing
    /// exercise: timed steps with their cues and a progress bar; `nil` for none.
    ///
    /// Like ``clipboard``, it is `hooray`'s to play, never the plugin's, since a command may run in
    /// `hoorayd`. On a terminal `hooray` shows each step's cue with a bar that fills over its seconds;
    /// with `TERM=dumb` it prints one line per step as the step begins. Without a terminal, or with
    /// `--json` (then on standard error), it prints ``TerminalGuide/listing`` at once. Ctrl-C or
    /// `SIGTERM` ends a guide early and cleanly: the cursor and the terminal's modes are put back, a
    /// kind line is printed and `hooray` exits 0, as the command itself did what was asked.
    public var guide: TerminalGuide?
    /// A table for `hooray` to add to the user's configuration file, where the user can then change
    /// it by hand, such as a reminder of `hooray remind add --to-file`; `nil` for none.
    ///
    /// `hooray` writes it, never the plugin (a command may run in `hoorayd`): checked as the file's
    /// other tables are, before the reply is printed; when it is refused, the reply is not printed
    /// and `hooray` says why and exits 78.
    public var configurationEntry: ConfigurationEntry?

    /// Creates a reply.
    ///
    /// - Parameters:
    ///   - text: What to print.
    ///   - json: What to print with `--json`.
    ///   - warnings: Lines for standard error.
    ///   - followUp: A command to run after the background work, when hosted by `hooray`.
    ///   - clipboard: Text for `hooray` to put on the user's clipboard.
    ///   - guide: A guide for `hooray` to play in the user's terminal.
    ///   - configurationEntry: A table for `hooray` to add to the user's configuration file.
    public init(
        text: String = "", json: JSONValue? = nil, warnings: [String] = [], followUp: CommandInvocation? = nil,
        clipboard: String? = nil, guide: TerminalGuide? = nil, configurationEntry: ConfigurationEntry? = nil
    ) {
        self.configurationEntry = configurationEntry
        self.guide = guide
        self.text = text
        self.json = json
        self.warnings = warnings
        self.followUp = followUp
        self.clipboard = clipboard
    }

    enum CodingKeys: String, CodingKey {
        case text, json, warnings, clipboard, guide
        case followUp = "follow_up"
        case configurationEntry = "configuration_entry"
    }

    /// Decodes a reply; one from a host or plugin that predates a member leaves it out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        json = try container.decodeIfPresent(JSONValue.self, forKey: .json)
        warnings = try container.decode([String].self, forKey: .warnings)
        followUp = try container.decodeIfPresent(CommandInvocation.self, forKey: .followUp)
        clipboard = try container.decodeIfPresent(String.self, forKey: .clipboard)
        guide = try container.decodeIfPresent(TerminalGuide.self, forKey: .guide)
        configurationEntry = try container.decodeIfPresent(ConfigurationEntry.self, forKey: .configurationEntry)
    }

    /// A reply that is text only.
    public static func text(_ text: String) -> CommandReply {
        CommandReply(text: text)
    }
}

/// Timed steps `hooray` plays in the user's terminal (``CommandReply/guide``), such as a calm
/// breathing exercise: each step's cue is shown with a progress bar for its seconds.
///
/// ```swift
/// TerminalGuide(
///     title: "90 seconds of calm breathing",
///     steps: [.init(cue: "Breathe in", seconds: 4), .init(cue: "Hold", seconds: 4), .init(cue: "Breathe out", seconds: 6)],
///     closing: "Well done. The craving has had time to pass.")
/// ```
public struct TerminalGuide: Sendable, Hashable, Codable {
    /// One step: a cue shown for some seconds.
    public struct Step: Sendable, Hashable, Codable {
        /// What to do, such as `Breathe in`.
        public var cue: String
        /// How long, in seconds, 1 to 600.
        public var seconds: Int

        /// Creates a step.
        ///
        /// - Parameters:
        ///   - cue: What to do.
        ///   - seconds: How long.
        public init(cue: String, seconds: Int) {
            self.cue = cue
            self.seconds = seconds
        }
    }

    /// The guide's title, shown first.
    public var title: String
    /// The steps, in order.
    public var steps: [Step]
    /// A line shown when the guide ends (not when it is stopped early).
    public var closing: String

    /// Creates a guide.
    ///
    /// - Parameters:
    ///   - title: Its title.
    ///   - steps: Its steps, in order.
    ///   - closing: The line shown at its end.
    public init(title: String, steps: [Step], closing: String) {
        self.title = title
        self.steps = steps
        self.closing = closing
    }

    /// The whole guide's length, in seconds.
    public var totalSeconds: Int { steps.reduce(0) { $0 + $1.seconds } }

    /// The guide as lines to read rather than be guided through: the title, one line per step
    /// (`Breathe in — 4 s`) and the whole length (`In all: 90 s.`).
    ///
    /// `hooray` prints it when it cannot play the guide (no terminal, or `--json`), and a plugin can
    /// put it in a reply's text for a user who asked for no animation, so both read alike.
    public var listing: String {
        ([title] + steps.map { "\($0.cue) — \($0.seconds) s" } + ["In all: \(totalSeconds) s."]).joined(separator: "\n")
    }
}

/// A table a command asks `hooray` to add to the user's own configuration file
/// (``CommandReply/configurationEntry``): one more `[[plugins.NAME.TABLE]]` of the plugin's own
/// section, which the user can then change by hand.
///
/// ```swift
/// ConfigurationEntry(table: "reminder", keys: [.init("title", "Call mom"), .init("at", "18:00")])
/// ```
///
/// It is added after the file's other `[[plugins.NAME.TABLE]]` tables, with the file's indentation,
/// and checked with the plugin's configuration as every file is; the rest of the file is left as
/// it is.
public struct ConfigurationEntry: Sendable, Hashable, Codable {
    /// One key of the table and its value.
    public struct Key: Sendable, Hashable, Codable {
        /// The key, such as `title`.
        public var name: String
        /// The value: a string, number, boolean, list or object (an inline table); not `null`.
        public var value: JSONValue

        /// Creates a key.
        public init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// The array of tables within the plugin's section: `reminder` adds a `[[plugins.NAME.reminder]]`.
    public var table: String
    /// The keys, in the order they are written.
    public var keys: [Key]

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - table: The array of tables within the plugin's section.
    ///   - keys: The keys, in the order they are written.
    public init(table: String, keys: [Key]) {
        self.table = table
        self.keys = keys
    }
}
