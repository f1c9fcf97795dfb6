import Foundation
import HoorayKit

/// A command a plugin offers on the command line, run as `hooray PLUGIN NAME …` or by one of its
/// ``aliases``.
///
/// A command is described as data so that `hooray` can parse it, print `--help`, write the man page
/// and complete it in the shell without running the plugin. The plugin only sees the parsed
/// ``CommandInvocation`` in ``CommandPlugin/run(_:context:configuration:)``, whether `hoorayd` runs it
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
    /// Whether the command offers `--json`: then `CommandReply.json` is printed instead of the text.
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
    /// 2 s; your moment is kept, and hoorayd saves it once when it goes on."). `nil` for a command
    /// that saves nothing, or when no one noun fits; the message then says "what you asked".
    public var noun: String?
    /// Whether the command may change what is stored: `true` unless the plugin says otherwise.
    ///
    /// A command that writes is kept in the spool until `hoorayd` takes it, under a request id, so
    /// that it is never lost while `hoorayd` is stopped or busy and never runs twice. A command that
    /// only reads, such as a list, needs none: set `writes: false` and it is sent without one. A
    /// command that writes also tells every client following `hoorayd`'s changes (a status bar, the
    /// desktop app) to read again once it ran; one that only reads does not, so a window's reading
    /// never brings about the next. Leave it `true` when in doubt; a flag with which it saves nothing says so
    /// (``Flag/savesNothing``).
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
        /// Whether the command saves nothing when the flag is given, though it may otherwise (such
        /// as `hooray remind --to-file`, which only answers with an entry for hooray.toml): then it
        /// is run as a command that reads. Not sent over the wire.
        public var savesNothing: Bool = false

        /// Creates a flag.
        ///
        /// - Parameters:
        ///   - name: Its long name, without dashes.
        ///   - help: What it does.
        ///   - savesNothing: Whether the command saves nothing when the flag is given.
        public init(name: String, help: String, savesNothing: Bool = false) {
            self.name = name
            self.help = help
            self.savesNothing = savesNothing
        }

        enum CodingKeys: String, CodingKey {
            case name, help
        }
    }

    /// Whether this run of the command may change what is stored: ``writes``, unless a flag given
    /// says it saves nothing (``Flag/savesNothing``).
    public func writes(_ invocation: CommandInvocation) -> Bool {
        writes && !flags.contains { $0.savesNothing && invocation.flag($0.name) }
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
