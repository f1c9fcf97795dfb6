import FoundationEssentials

/// A request to the daemon over its control socket: one JSON object on one line, such as
/// `{"api_version":1,"method":"status"}`. The whole format is in docs/protocol.md.
public enum ControlRequest: Codable, Sendable, Equatable {
    /// Ask how the daemon is doing.
    case status
    /// Reload the configuration, as SIGHUP does.
    case reload
    /// Rules or notices were changed in the database by another process: re-read them now.
    case refresh
    /// Press a notice's button, as if clicked on the notification.
    ///
    /// `answer` (optional) is the user's answer to the button's question (``NoticeAction/prompt``),
    /// handed to the plugin as ``InvokedAction/answer``; a button without a question refuses one.
    /// `requestID` (optional) is a UUID the client made, naming the request's file in the spool
    /// (``RequestSpool``), which the client wrote before sending: the daemon runs the request only
    /// once it has taken that file, so once however often it arrives, and not at all once withdrawn.
    case act(notice: Int64, action: String, answer: String? = nil, requestID: String? = nil)
    /// Run a command of a plugin, such as `hooray win`; `requestID` as for
    /// ``act(notice:action:answer:requestID:)``.
    case command(plugin: String, invocation: CommandInvocation, requestID: String? = nil)
    /// Every plugin and how it is doing (`hooray plugins`).
    case plugins
    /// Stops a plugin in another language and starts it again (`hooray plugins restart NAME`).
    case restart(plugin: String)
    /// Allows a held plugin in another language the permissions its `plugin.toml` asks for, and
    /// starts it (`hooray plugins allow NAME`).
    case allow(plugin: String)
    /// What a status bar shows (`hooray bar`): answered with `bar`; with `follow`, the connection
    /// stays open and the daemon writes one more answer line each time the bar changes.
    case bar(follow: Bool = false)
    /// A command line as the user typed it, from the `hooray` front door (``FrontDoor``): the daemon
    /// parses it as `hooray` would and runs it when it is a plugin's command that needs nothing of the
    /// terminal, answering with ``ControlResponse/output``; otherwise it answers
    /// ``ControlResponse/handOver`` having done nothing. `requestID` as for
    /// ``act(notice:action:answer:requestID:)``.
    case run(arguments: [String], caller: FrontDoorCaller, requestID: String? = nil)
    /// Delete everything kept about the user in the database (`hooray delete-my-data`): the daemon,
    /// the one writer, empties the spool and the database. Answered with ``ControlResponse/deleted``;
    /// `hooray delete-my-data` then deletes the identity and asks for a ``reload``, which brings the
    /// configured reminders back.
    case deleteData
    /// Be told when something a client shows may have changed (a command ran, a notice was posted,
    /// shown or updated, a reminder was planned, a button was pressed): always followed, the
    /// connection stays open and the daemon writes an answer with ``ControlResponse/change`` at
    /// once and one more after each change, until either side leaves. The desktop app reads again
    /// what it shows on each.
    case changes
    /// The settings at `keys` (such as `celebrations.style`) as the configuration files set them,
    /// merged as hoorayd reads them: answered with ``ControlResponse/settings`` (a key no file sets
    /// has no value: its default applies), or, when the files have errors, not ok, with
    /// ``ControlResponse/problems`` saying where.
    case settings(keys: [String])
    /// Sets a setting in the user's own configuration file, as `hooray config set KEY VALUE` does
    /// (`value` read as there; `nil` removes the key, as `hooray config unset`): only that line
    /// changes, comments and layout stay, and hoorayd applies it at once. A value the configuration
    /// would refuse, or a file broken by hand, is answered not ok with the reason, ``ControlResponse/invalidValue``
    /// set to the key, and the file untouched. Answered with the setting as it is then.
    case setSetting(key: String, value: String?)
    /// Holds back the notifications of reminders until `until`, as quiet hours do (`hooray pause`);
    /// `nil` ends a pause now. What waited is shown when the pause ends. Answered with
    /// ``ControlResponse/pausedUntil``, `nil` when notifications are not paused.
    case pause(until: Date?)
    /// Sets up sync through `folder` (`hooray sync setup`): the first computer makes the key, the
    /// others are given it as `phrase`. Answered with ``ControlResponse/syncPhrase`` and
    /// ``ControlResponse/sync``; a folder of other computers, a wrong phrase or a missing folder is
    /// refused with the reason.
    case syncSetup(folder: String, phrase: String?, newDevice: Bool = false)
    /// How sync is doing (`hooray sync status`); with `phrase`, the pairing phrase too.
    case syncStatus(phrase: Bool)

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
        case requestID = "request_id"
        case method, notice, action, answer, plugin, invocation, follow, arguments, caller, keys, key, value, until
        case folder, phrase
        case newDevice = "new_device"
    }

    /// The request id of a request that carries one.
    public var requestID: String? {
        switch self {
        case .act(_, _, _, let id), .command(_, _, let id), .run(_, _, let id): id
        case .status, .reload, .refresh, .plugins, .restart, .allow, .bar, .changes, .deleteData, .settings,
            .setSetting, .pause, .syncSetup, .syncStatus:
            nil
        }
    }

    /// The methods, as the `method` member names them.
    public static let methods = [
        "status", "reload", "refresh", "act", "command", "plugins", "restart", "allow", "bar", "run", "changes",
        "delete_data", "settings", "set_setting", "pause", "sync_setup", "sync_status",
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .apiVersion)
        guard version == controlAPIVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .apiVersion, in: container,
                debugDescription:
                    "this hoorayd speaks api_version \(controlAPIVersion), the request api_version \(version); after an upgrade, restart hoorayd (`systemctl --user restart hooray`) so both speak the same"
            )
        }
        let method = try container.decode(String.self, forKey: .method)
        switch method {
        case "status": self = .status
        case "reload": self = .reload
        case "refresh": self = .refresh
        case "changes": self = .changes
        case "delete_data": self = .deleteData
        case "plugins": self = .plugins
        case "restart": self = .restart(plugin: try container.decode(String.self, forKey: .plugin))
        case "allow": self = .allow(plugin: try container.decode(String.self, forKey: .plugin))
        case "bar": self = .bar(follow: try container.decodeIfPresent(Bool.self, forKey: .follow) ?? false)
        case "settings": self = .settings(keys: try container.decode([String].self, forKey: .keys))
        case "set_setting":
            self = .setSetting(
                key: try container.decode(String.self, forKey: .key),
                value: try container.decodeIfPresent(String.self, forKey: .value))
        case "pause": self = .pause(until: try container.decodeIfPresent(Date.self, forKey: .until))
        case "sync_setup":
            self = .syncSetup(
                folder: try container.decode(String.self, forKey: .folder),
                phrase: try container.decodeIfPresent(String.self, forKey: .phrase),
                newDevice: try container.decodeIfPresent(Bool.self, forKey: .newDevice) ?? false)
        case "sync_status":
            self = .syncStatus(phrase: try container.decodeIfPresent(Bool.self, forKey: .phrase) ?? false)
        case "act":
            self = .act(
                notice: try container.decode(Int64.self, forKey: .notice),
                action: try container.decode(String.self, forKey: .action),
                answer: try container.decodeIfPresent(String.self, forKey: .answer),
                requestID: try container.decodeIfPresent(String.self, forKey: .requestID))
        case "command":
            self = .command(
                plugin: try container.decode(String.self, forKey: .plugin),
                invocation: try container.decode(CommandInvocation.self, forKey: .invocation),
                requestID: try container.decodeIfPresent(String.self, forKey: .requestID))
        case "run":
            let run = try RunRequest(from: decoder)
            self = .run(arguments: run.arguments, caller: run.caller, requestID: run.requestID)
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .method, in: container,
                debugDescription: "unknown method; the methods are \(Self.methods.joined(separator: ", "))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .run(let arguments, let caller, let requestID) = self {
            try RunRequest(arguments: arguments, caller: caller, requestID: requestID).encode(to: encoder)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(controlAPIVersion, forKey: .apiVersion)
        switch self {
        case .status: try container.encode("status", forKey: .method)
        case .reload: try container.encode("reload", forKey: .method)
        case .refresh: try container.encode("refresh", forKey: .method)
        case .plugins: try container.encode("plugins", forKey: .method)
        case .changes: try container.encode("changes", forKey: .method)
        case .deleteData: try container.encode("delete_data", forKey: .method)
        case .restart(let plugin):
            try container.encode("restart", forKey: .method)
            try container.encode(plugin, forKey: .plugin)
        case .allow(let plugin):
            try container.encode("allow", forKey: .method)
            try container.encode(plugin, forKey: .plugin)
        case .bar(let follow):
            try container.encode("bar", forKey: .method)
            if follow { try container.encode(true, forKey: .follow) }
        case .settings(let keys):
            try container.encode("settings", forKey: .method)
            try container.encode(keys, forKey: .keys)
        case .setSetting(let key, let value):
            try container.encode("set_setting", forKey: .method)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(value, forKey: .value)
        case .pause(let until):
            try container.encode("pause", forKey: .method)
            try container.encodeIfPresent(until, forKey: .until)
        case .syncSetup(let folder, let phrase, let newDevice):
            try container.encode("sync_setup", forKey: .method)
            try container.encode(folder, forKey: .folder)
            try container.encodeIfPresent(phrase, forKey: .phrase)
            if newDevice { try container.encode(true, forKey: .newDevice) }
        case .syncStatus(let phrase):
            try container.encode("sync_status", forKey: .method)
            if phrase { try container.encode(true, forKey: .phrase) }
        case .act(let notice, let action, let answer, let requestID):
            try container.encode("act", forKey: .method)
            try container.encode(notice, forKey: .notice)
            try container.encode(action, forKey: .action)
            try container.encodeIfPresent(answer, forKey: .answer)
            try container.encodeIfPresent(requestID, forKey: .requestID)
        case .command(let plugin, let invocation, let requestID):
            try container.encode("command", forKey: .method)
            try container.encode(plugin, forKey: .plugin)
            try container.encode(invocation, forKey: .invocation)
            try container.encodeIfPresent(requestID, forKey: .requestID)
        case .run: break
        }
    }
}

/// The daemon's answer: one JSON object on one line.
public struct ControlResponse: Codable, Sendable, Equatable {
    /// Whether the request succeeded.
    public var ok: Bool
    /// A message for the user (an error, or what happened).
    public var message: String?
    /// The daemon's status, for ``ControlRequest/status``.
    public var status: DaemonStatus?
    /// A plugin's reply, for ``ControlRequest/command(plugin:invocation:requestID:)``.
    public var reply: CommandReply?
    /// For ``ControlRequest/act(notice:action:answer:requestID:)`` of a snooze button: when the notice comes back.
    public var snoozedUntil: Date?
    /// For `sync_setup` and `sync_status`: how sync is doing.
    public var sync: SyncStatus?
    /// For `sync_setup`, and `sync_status` with `phrase`: the pairing phrase the user's other
    /// computers are given.
    public var syncPhrase: String?
    /// For ``ControlRequest/pause(until:)``: when notifications of reminders are shown again; `nil`
    /// when they are not paused.
    public var pausedUntil: Date?
    /// Whether the request was not run because its file was no longer in the spool: taken already
    /// (it ran once) or withdrawn by its client.
    public var duplicate: Bool?
    /// `true` when the daemon turned the request away unread because it is busy (too many open
    /// connections): nothing was done, and trying again in a moment may work.
    public var busy: Bool?
    /// For a refused command: the option or argument whose value the plugin refused (a usage
    /// error, see ``PluginCommandError/Kind/invalidValue(option:)``); for a refused `act`,
    /// `--answer` when an answer came with a button that asks no question; `nil` for other failures.
    public var invalidValue: String?
    /// For a failed `command`: the status `hooray` exits with, when the plugin chose one other than 1.
    public var exitCode: Int32?
    /// For `plugins`: every plugin and how it is doing.
    public var plugins: [PluginReport]?
    /// For `bar`: what a status bar shows.
    public var bar: BarSnapshot?
    /// For `run`: `true` when the daemon did not run the command line and will not — it is the full
    /// `hooray` program's to run (help, a question on the terminal, bad arguments, `--config`, a
    /// command that only reads).
    public var handOver: Bool?
    /// For `run`: what `hooray` prints and the status it exits with, once the daemon ran the command.
    public var output: CommandOutput?
    /// For ``ControlRequest/changes``: `0` in the first answer, then the count of changes so far in
    /// each answer after one (changes close together come as one answer).
    public var change: Int?
    /// For ``ControlRequest/deleteData``: what was removed.
    public var deleted: DeletedData?
    /// For ``ControlRequest/settings(keys:)`` and ``ControlRequest/setSetting(key:value:)``: the
    /// settings asked for, as the files set them now.
    public var settings: [SettingValue]?
    /// For a settings request refused: each problem of the configuration files, where it is and its fix.
    public var problems: [SettingProblem]?
    /// For a settings request refused: how to fix it.
    public var hint: String?
    /// The protocol version of the answer.
    public var apiVersion = controlAPIVersion

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
        case snoozedUntil = "snoozed_until"
        case pausedUntil = "paused_until"
        case syncPhrase = "sync_phrase"
        case invalidValue = "invalid_value"
        case exitCode = "exit_code"
        case handOver = "hand_over"
        case ok, output, message, status, reply, duplicate, busy, plugins, bar, change, deleted, settings, problems,
            hint, sync
    }

    /// Creates a response.
    public init(
        ok: Bool, message: String? = nil, status: DaemonStatus? = nil, reply: CommandReply? = nil,
        snoozedUntil: Date? = nil, duplicate: Bool? = nil, invalidValue: String? = nil, busy: Bool? = nil,
        exitCode: Int32? = nil, plugins: [PluginReport]? = nil, bar: BarSnapshot? = nil, handOver: Bool? = nil,
        output: CommandOutput? = nil, change: Int? = nil, deleted: DeletedData? = nil, settings: [SettingValue]? = nil,
        problems: [SettingProblem]? = nil, hint: String? = nil, pausedUntil: Date? = nil, sync: SyncStatus? = nil,
        syncPhrase: String? = nil
    ) {
        self.sync = sync
        self.syncPhrase = syncPhrase
        self.pausedUntil = pausedUntil
        self.settings = settings
        self.problems = problems
        self.hint = hint
        self.deleted = deleted
        self.change = change
        self.handOver = handOver
        self.output = output
        self.bar = bar
        self.exitCode = exitCode
        self.plugins = plugins
        self.busy = busy
        self.ok = ok
        self.message = message
        self.status = status
        self.reply = reply
        self.snoozedUntil = snoozedUntil
        self.duplicate = duplicate
        self.invalidValue = invalidValue
    }
}

/// What `hooray status` shows about a running daemon.
public struct DaemonStatus: Codable, Sendable, Equatable {
    /// The daemon's process id.
    public var pid: Int32
    /// The daemon's version.
    public var version: String
    /// When it started.
    public var startedAt: Date
    /// The notification server, when one is reachable.
    public var server: ServerInfo?
    /// Why notices are not being shown, when no server is reachable.
    public var serverProblem: String?
    /// How many notices wait for delivery.
    public var waitingNotices: Int
    /// The active plugins.
    public var plugins: [String]
    /// Configuration files in force.
    public var configFiles: [String]
    /// The next due instant of any reminder.
    public var nextDue: Date?
    /// Where the anonymous identity is kept, in words (see `IdentityVault.whereabouts()`).
    public var identity: String?
    /// The notification server's do-not-disturb state, when hoorayd knows it.
    public var doNotDisturb: DoNotDisturb?
    /// Whether the daemon hands a button's answer (`act`'s `answer`) to the plugin. A daemon from
    /// before buttons could ask a question leaves it out, and would press the button without it.
    public var takesAnswers: Bool?
    /// Until when the notifications of reminders are paused (`hooray pause`); `nil` when they are not.
    public var pausedUntil: Date?

    enum CodingKeys: String, CodingKey {
        case pid, version, server, plugins, identity
        case takesAnswers = "takes_answers"
        case pausedUntil = "paused_until"
        case startedAt = "started_at"
        case serverProblem = "server_problem"
        case waitingNotices = "waiting_notices"
        case configFiles = "config_files"
        case nextDue = "next_due"
        case doNotDisturb = "do_not_disturb"
    }

    /// Creates a status.
    public init(
        pid: Int32, version: String, startedAt: Date, server: ServerInfo?, serverProblem: String?,
        waitingNotices: Int, plugins: [String], configFiles: [String], nextDue: Date?, identity: String? = nil,
        doNotDisturb: DoNotDisturb? = nil, takesAnswers: Bool? = nil, pausedUntil: Date? = nil
    ) {
        self.pausedUntil = pausedUntil
        self.takesAnswers = takesAnswers
        self.identity = identity
        self.doNotDisturb = doNotDisturb
        self.pid = pid
        self.version = version
        self.startedAt = startedAt
        self.server = server
        self.serverProblem = serverProblem
        self.waitingNotices = waitingNotices
        self.plugins = plugins
        self.configFiles = configFiles
        self.nextDue = nextDue
    }
}
