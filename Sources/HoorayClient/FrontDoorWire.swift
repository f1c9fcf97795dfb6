import FoundationEssentials
import HoorayBasics

/// What the `hooray` front door tells `hoorayd` about the terminal and the environment it was
/// started in, for a `run` request (``RunRequest``): what the full `hooray`
/// program would have read there itself.
public struct FrontDoorCaller: Codable, Sendable, Equatable {
    /// `TZ` as the caller has it; `nil` when unset.
    public var timeZone: String?
    /// `HOORAY_LOCALTIME` as the caller has it (tests name another `localtime` link with it).
    public var localtime: String?
    /// Whether standard output is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`;
    /// `--no-color` is read from the arguments.
    public var color: Bool
    /// Whether standard input is a terminal, where `hooray` would ask a question.
    public var interactive: Bool
    /// The caller's data folder (``HoorayPaths/dataDirectory``).
    public var dataDirectory: String
    /// The caller's working folder, where relative paths on the command line start.
    public var workingDirectory: String
    /// The caller's home folder, for `~/` on the command line.
    public var home: String
    /// The front door's version: a daemon of another version hands the command line over.
    public var version: String

    enum CodingKeys: String, CodingKey {
        case timeZone = "time_zone"
        case dataDirectory = "data_directory"
        case workingDirectory = "working_directory"
        case localtime, color, interactive, home, version
    }

    /// Creates a caller.
    public init(
        timeZone: String?, localtime: String? = nil, color: Bool, interactive: Bool, dataDirectory: String,
        workingDirectory: String, home: String, version: String
    ) {
        self.timeZone = timeZone
        self.localtime = localtime
        self.color = color
        self.interactive = interactive
        self.dataDirectory = dataDirectory
        self.workingDirectory = workingDirectory
        self.home = home
        self.version = version
    }
}

/// What `hooray` prints for a command `hoorayd` ran for the front door, in order, and the status
/// it exits with.
public struct CommandOutput: Codable, Sendable, Equatable {
    /// Text for one stream.
    public struct Write: Codable, Sendable, Equatable {
        /// 1 for standard output, 2 for standard error.
        public var to: Int32
        /// The text, newlines included.
        public var text: String

        /// Creates a write.
        public init(to: Int32, text: String) {
            self.to = to
            self.text = text
        }
    }

    /// The writes, in the order `hooray` makes them.
    public var writes: [Write]
    /// The exit status.
    public var status: Int32

    /// Creates an output.
    public init(writes: [Write], status: Int32) {
        self.writes = writes
        self.status = status
    }
}

/// A command line as the user typed it, from the `hooray` front door: `hoorayd` parses it as
/// `hooray` would and runs it when it is a plugin's command that needs nothing of the terminal,
/// answering with ``CommandOutput``; otherwise it answers `hand_over` having done nothing. The
/// `run` method of docs/protocol.md; the engine's `ControlRequest.run` is written and read as this.
package struct RunRequest: Codable, Sendable, Equatable {
    /// The words after `hooray`.
    public var arguments: [String]
    /// What the front door says of its terminal and environment.
    public var caller: FrontDoorCaller
    /// A UUID the client made: the daemon runs a request id once, however often it arrives.
    public var requestID: String?

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
        case requestID = "request_id"
        case method, arguments, caller
    }

    /// Creates a request.
    public init(arguments: [String], caller: FrontDoorCaller, requestID: String?) {
        self.arguments = arguments
        self.caller = caller
        self.requestID = requestID
    }

    /// Reads the members of a `run` request (its `api_version` and `method` checked by the caller).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        arguments = try container.decode([String].self, forKey: .arguments)
        caller = try container.decode(FrontDoorCaller.self, forKey: .caller)
        requestID = try container.decodeIfPresent(String.self, forKey: .requestID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(controlAPIVersion, forKey: .apiVersion)
        try container.encode("run", forKey: .method)
        try container.encode(arguments, forKey: .arguments)
        try container.encode(caller, forKey: .caller)
        try container.encodeIfPresent(requestID, forKey: .requestID)
    }
}

/// What the front door reads of the daemon's answer to a `run` request: the members of the answer
/// (the engine's `ControlResponse`) that tell it what to do.
package struct RunAnswer: Decodable, Sendable, Equatable {
    /// What to print and the status to exit with, once the daemon ran the command.
    public var output: CommandOutput?
    /// `true` when the full program is to run the command line (not run), or to go on from the
    /// daemon's reply (run, with something left that only it can do).
    public var handOver: Bool
    /// Whether the answer carries the plugin's reply: the daemon ran the command.
    public var hasReply: Bool
    /// The answer's protocol version: a daemon of another version ran nothing.
    public var apiVersion: Int?

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
        case handOver = "hand_over"
        case output, reply
    }

    /// Reads an answer; any JSON object reads, members of another shape (another version's) left out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        apiVersion = (try? container.decodeIfPresent(Int.self, forKey: .apiVersion)) ?? nil
        output = (try? container.decodeIfPresent(CommandOutput.self, forKey: .output)) ?? nil
        handOver = (try? container.decodeIfPresent(Bool.self, forKey: .handOver)) ?? nil ?? false
        hasReply = container.contains(.reply)
    }
}
