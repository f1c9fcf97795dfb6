import Foundation

/// A command a plugin offers on the command line, run as `hooray PLUGIN NAME …` or by one of its
/// ``aliases``.
///
/// A command is described as data so that `hooray` can parse it, print `--help`, write the man page
/// and complete it in the shell without running the plugin. The plugin only sees the parsed
/// ``CommandInvocation`` in ``HoorayPlugin/run(_:context:configuration:)``, whether `hoorayd` runs it
/// or, when no daemon is running, the `hooray` process itself.
///
/// ```swift
/// CommandSpec(
///     name: "drink", summary: "Count a glass of water.",
///     options: [.init(name: "glasses", valueName: "n", help: "How many glasses (default 1).")],
///     examples: ["hooray water drink", "hooray water drink --glasses 2"],
///     offersJSON: true)
/// ```
public struct CommandSpec: Sendable, Hashable, Codable {
    /// The command's name within the plugin: lowercase letters, digits and dashes, such as `drink`.
    public var name: String
    /// One line for the command list and the top of `--help`.
    public var summary: String
    /// Paragraphs that follow the summary in `--help` and the man page; may be empty.
    public var discussion: String
    /// Positional arguments, in order. Only the last may be optional or repeating.
    public var arguments: [Argument]
    /// Options that take a value: `--name VALUE` or `--name=VALUE`.
    public var options: [Option]
    /// Flags: `--name` alone.
    public var flags: [Flag]
    /// Complete command lines that show how to use it, such as `hooray water drink --glasses 2`.
    public var examples: [String]
    /// Other words that run this command from the top level, such as `win` for `wins log`; an
    /// alias of two words (`moments fav`) nests the second under the first.
    public var aliases: [String]
    /// Whether this command runs when the plugin (or an alias group) is given no command.
    public var isDefault: Bool
    /// Whether the command offers `--json`: then ``CommandReply/json`` is printed instead of the text.
    public var offersJSON: Bool
    /// A yes/no question asked on a terminal before the command runs, such as
    /// `Delete “{name}” and all its history? This cannot be undone.`; `{ARGUMENT}` is replaced by
    /// that argument's value. Without a terminal the user must add `--yes`, which every command with
    /// a confirmation offers. Answering no leaves everything as it was.
    public var confirmation: String?
    /// Whether the command is left out of help and completions: for follow-ups the CLI runs itself.
    public var isHidden: Bool
    /// What one run of the command saves, as the user would name it with "your", such as
    /// `your moment`: `hooray` says it when `hoorayd` is slow to answer ("hoorayd did not answer in
    /// 2 s, so your moment was saved here instead."). `nil` for a command that saves nothing, or
    /// when no one noun fits; the message then says "what you asked".
    public var noun: String?
    /// Whether the command may change what is stored: `true` unless the plugin says otherwise.
    ///
    /// A command that writes carries a request id that whoever runs it claims first, so that a
    /// retry — the user's, or `hooray` running it itself when `hoorayd` is slow to answer — never
    /// writes twice. A command that only reads, such as a list, needs none: set `writes: false` and
    /// it is sent without one, and never run twice on its behalf. Leave it `true` when in doubt.
    public var writes: Bool
    /// Whether the command is a listing that writes to ``CommandStream/current`` as it reads: then
    /// `hooray` runs it in its own process, reading the database itself, so that any number of
    /// records list with flat memory and no time limit. Only a command that does not write may
    /// stream, and only a built-in plugin's; it is not sent over the wire.
    public var streams: Bool = false

    /// Creates a command description.
    ///
    /// - Parameters:
    ///   - name: The command's name within the plugin.
    ///   - summary: One line describing it.
    ///   - discussion: More about it, for `--help`.
    ///   - arguments: Its positional arguments.
    ///   - options: Its options that take a value.
    ///   - flags: Its flags.
    ///   - examples: Command lines that show how to use it.
    ///   - aliases: Top-level words that run it too.
    ///   - isDefault: Whether it runs when no command is given.
    ///   - offersJSON: Whether it offers `--json`.
    ///   - confirmation: A question to ask on a terminal first.
    ///   - isHidden: Whether help and completions leave it out.
    ///   - noun: What one run saves, such as `your moment`, for messages about a slow daemon.
    ///   - writes: Whether it may change what is stored; `false` for a command that only reads.
    ///   - streams: Whether it is a listing that writes to ``CommandStream/current`` (``streams``).
    public init(
        name: String, summary: String, discussion: String = "", arguments: [Argument] = [], options: [Option] = [],
        flags: [Flag] = [], examples: [String] = [], aliases: [String] = [], isDefault: Bool = false,
        offersJSON: Bool = false, confirmation: String? = nil, isHidden: Bool = false, noun: String? = nil,
        writes: Bool = true, streams: Bool = false
    ) {
        self.noun = noun
        self.writes = writes
        self.streams = streams && !writes
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.flags = flags
        self.examples = examples
        self.aliases = aliases
        self.isDefault = isDefault
        self.offersJSON = offersJSON
        self.confirmation = confirmation
        self.isHidden = isHidden
    }

    enum CodingKeys: String, CodingKey {
        case name, summary, discussion, arguments, options, flags, examples, aliases, confirmation, noun, writes
        case isDefault = "is_default"
        case offersJSON = "offers_json"
        case isHidden = "is_hidden"
    }

    /// Decodes a command description; one written before ``writes`` existed writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        summary = try container.decode(String.self, forKey: .summary)
        discussion = try container.decode(String.self, forKey: .discussion)
        arguments = try container.decode([Argument].self, forKey: .arguments)
        options = try container.decode([Option].self, forKey: .options)
        flags = try container.decode([Flag].self, forKey: .flags)
        examples = try container.decode([String].self, forKey: .examples)
        aliases = try container.decode([String].self, forKey: .aliases)
        isDefault = try container.decode(Bool.self, forKey: .isDefault)
        offersJSON = try container.decode(Bool.self, forKey: .offersJSON)
        confirmation = try container.decodeIfPresent(String.self, forKey: .confirmation)
        isHidden = try container.decode(Bool.self, forKey: .isHidden)
        noun = try container.decodeIfPresent(String.self, forKey: .noun)
        writes = try container.decodeIfPresent(Bool.self, forKey: .writes) ?? true
    }

    /// A positional argument of a command.
    public struct Argument: Sendable, Hashable, Codable {
        /// Its name, shown as `<name>` in usage and used to read it from ``CommandInvocation``.
        public var name: String
        /// What to give, for `--help`.
        public var help: String
        /// Whether it may be left out.
        public var isOptional: Bool
        /// Whether it takes every remaining word (`hooray win Took a walk`).
        public var isRepeating: Bool
        /// Whether its values are file paths: `hooray` makes them absolute before the plugin sees them.
        public var isPath: Bool
        /// A question asked on a terminal when the argument is left out (Enter leaves it out).
        public var prompt: String?
        /// The answers to ``prompt`` as a one-key menu: on a terminal the question shows them and
        /// one key picks one. Empty for a question answered with a line.
        ///
        /// Enter leaves the value out; Esc, Ctrl-C or Ctrl-D cancels the command ("Cancelled; nothing
        /// was saved.", exit 1) before the plugin sees it. When standard output is not a terminal the
        /// question is answered with a line: a key or a value.
        public var menu: [MenuChoice]
        /// The words of a `hooray` command whose output, one value a line, the shell offers to
        /// complete this argument, such as `["habit", "list", "--names"]`; `nil` for none. Paths
        /// (``isPath``) complete as files without it.
        public var completionCommand: [String]?

        enum CodingKeys: String, CodingKey {
            case name, help, prompt, menu
            case isOptional = "is_optional"
            case isRepeating = "is_repeating"
            case isPath = "is_path"
            case completionCommand = "completion_command"
        }

        /// Decodes an argument; one described before menus existed has none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            help = try container.decode(String.self, forKey: .help)
            isOptional = try container.decode(Bool.self, forKey: .isOptional)
            isRepeating = try container.decode(Bool.self, forKey: .isRepeating)
            isPath = try container.decode(Bool.self, forKey: .isPath)
            prompt = try container.decodeIfPresent(String.self, forKey: .prompt)
            menu = try container.decodeIfPresent([MenuChoice].self, forKey: .menu) ?? []
            completionCommand = try container.decodeIfPresent([String].self, forKey: .completionCommand)
        }

        /// Creates an argument.
        ///
        /// - Parameters:
        ///   - name: Its name.
        ///   - help: What to give.
        ///   - isOptional: Whether it may be left out.
        ///   - isRepeating: Whether it takes every remaining word.
        ///   - isPath: Whether its values are file paths.
        ///   - prompt: A question to ask on a terminal when it is left out.
        ///   - menu: The answers to `prompt` as a one-key menu; none for a line.
        ///   - completionCommand: A `hooray` command that prints the values the shell may complete.
        public init(
            name: String, help: String, isOptional: Bool = false, isRepeating: Bool = false, isPath: Bool = false,
            prompt: String? = nil, menu: [MenuChoice] = [], completionCommand: [String]? = nil
        ) {
            self.menu = menu
            self.name = name
            self.help = help
            self.isOptional = isOptional
            self.isRepeating = isRepeating
            self.isPath = isPath
            self.prompt = prompt
            self.completionCommand = completionCommand
        }
    }

    /// An option that takes a value: `--name VALUE`.
    public struct Option: Sendable, Hashable, Codable {
        /// Its long name, without the dashes.
        public var name: String
        /// What its value is, shown as `<valueName>` in usage.
        public var valueName: String
        /// What it does, for `--help`.
        public var help: String
        /// Whether it may be given more than once (`--photo a.jpg --photo b.jpg`).
        public var isRepeating: Bool
        /// Whether its values are file paths: `hooray` makes them absolute before the plugin sees them.
        public var isPath: Bool
        /// The values it accepts, for completion; empty when any value goes.
        public var choices: [String]
        /// A question asked on a terminal when the option is not given (Enter leaves it out).
        public var prompt: String?
        /// The answers to ``prompt`` as a one-key menu: on a terminal the question shows them and
        /// one key picks one. Empty for a question answered with a line.
        ///
        /// Enter leaves the value out (unless it ``isRequired``); Esc, Ctrl-C or Ctrl-D cancels the
        /// command ("Cancelled; nothing was saved.", exit 1) before the plugin sees it. When standard
        /// output is not a terminal the question is answered with a line: a key or a value.
        public var menu: [MenuChoice]
        /// Whether the command needs the option: on a terminal its question cannot be left out with
        /// Enter; without one, the plugin refuses the command when it is missing (exit 64, naming it).
        public var isRequired: Bool
        /// The words of a `hooray` command whose output, one value a line, the shell offers to
        /// complete this option's value; `nil` for none. ``choices`` and paths (``isPath``) complete
        /// without it.
        public var completionCommand: [String]?

        enum CodingKeys: String, CodingKey {
            case name, help, choices, prompt, menu
            case isRequired = "is_required"
            case valueName = "value_name"
            case isRepeating = "is_repeating"
            case isPath = "is_path"
            case completionCommand = "completion_command"
        }

        /// Decodes an option; one described before menus existed has none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            valueName = try container.decode(String.self, forKey: .valueName)
            help = try container.decode(String.self, forKey: .help)
            isRepeating = try container.decode(Bool.self, forKey: .isRepeating)
            isPath = try container.decode(Bool.self, forKey: .isPath)
            choices = try container.decode([String].self, forKey: .choices)
            prompt = try container.decodeIfPresent(String.self, forKey: .prompt)
            menu = try container.decodeIfPresent([MenuChoice].self, forKey: .menu) ?? []
            isRequired = try container.decodeIfPresent(Bool.self, forKey: .isRequired) ?? false
            completionCommand = try container.decodeIfPresent([String].self, forKey: .completionCommand)
        }

        /// Creates an option.
        ///
        /// - Parameters:
        ///   - name: Its long name, without dashes.
        ///   - valueName: What its value is.
        ///   - help: What it does.
        ///   - isRepeating: Whether it may be given more than once.
        ///   - isPath: Whether its values are file paths.
        ///   - choices: The values it accepts, for completion.
        ///   - prompt: A question to ask on a terminal when it is not given.
        ///   - menu: The answers to `prompt` as a one-key menu; none for a line.
        ///   - isRequired: Whether the command needs it.
        ///   - completionCommand: A `hooray` command that prints the values the shell may complete.
        public init(
            name: String, valueName: String? = nil, help: String, isRepeating: Bool = false, isPath: Bool = false,
            choices: [String] = [], prompt: String? = nil, menu: [MenuChoice] = [], isRequired: Bool = false,
            completionCommand: [String]? = nil
        ) {
            self.isRequired = isRequired
            self.menu = menu
            self.completionCommand = completionCommand
            self.name = name
            self.valueName = valueName ?? name
            self.help = help
            self.isRepeating = isRepeating
            self.isPath = isPath
            self.choices = choices
            self.prompt = prompt
        }
    }

    /// A flag: `--name`, on or off.
    public struct Flag: Sendable, Hashable, Codable {
        /// Its long name, without the dashes.
        public var name: String
        /// What it does, for `--help`.
        public var help: String

        /// Creates a flag.
        ///
        /// - Parameters:
        ///   - name: Its long name, without dashes.
        ///   - help: What it does.
        public init(name: String, help: String) {
            self.name = name
            self.help = help
        }
    }
}

/// One answer of a one-key menu (``CommandSpec/Option/menu``): on a terminal, `hooray` shows the
/// question with each answer's key and label, and pressing a key gives that answer's value.
///
/// ```swift
/// MenuChoice(key: "1", value: "dating", label: "💔 Dating")
/// ```
public struct MenuChoice: Sendable, Hashable, Codable {
    /// The key that picks it: one character, such as `1` or `d`.
    public var key: String
    /// The value it gives the option or argument, such as `dating`.
    public var value: String
    /// What the menu shows for it, such as `💔 Dating`. A label that starts with its key and a
    /// space, such as `8 😣` for key `8`, is shown without the key in front again.
    public var label: String
    /// What `hooray` shows once it is picked, after an arrow (`→ 8/10 😣`); `nil` shows the label.
    public var echo: String?

    /// Creates an answer.
    ///
    /// - Parameters:
    ///   - key: The one character that picks it.
    ///   - value: The value it gives.
    ///   - label: What the menu shows.
    ///   - echo: What is shown once it is picked; the label when `nil`.
    public init(key: String, value: String, label: String, echo: String? = nil) {
        self.key = key
        self.value = value
        self.label = label
        self.echo = echo
    }
}

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

    /// The user's time zone; the current one when the identifier is unknown.
    public var timeZone: TimeZone {
        TimeZone(identifier: timeZoneIdentifier) ?? .current
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
