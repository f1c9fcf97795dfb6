import Foundation
import HoorayDelivery
import HoorayKit

/// A request to the daemon over its control socket: one JSON object on one line.
public enum ControlRequest: Codable, Sendable, Equatable {
    /// Ask how the daemon is doing.
    case status
    /// Reload the configuration, as SIGHUP does.
    case reload
    /// Rules or notices were changed in the database by another process: re-read them now.
    case refresh
    /// Press a notice's button, as if clicked on the notification.
    case act(notice: Int64, action: String)
    /// Run a command of a plugin, such as `hooray win`.
    case command(plugin: String, invocation: CommandInvocation)
}

/// The daemon's answer: one JSON object on one line.
public struct ControlResponse: Codable, Sendable, Equatable {
    /// Whether the request succeeded.
    public var ok: Bool
    /// A message for the user (an error, or what happened).
    public var message: String?
    /// The daemon's status, for ``ControlRequest/status``.
    public var status: DaemonStatus?
    /// A plugin's reply, for ``ControlRequest/command(plugin:invocation:)``.
    public var reply: CommandReply?

    /// Creates a response.
    public init(ok: Bool, message: String? = nil, status: DaemonStatus? = nil, reply: CommandReply? = nil) {
        self.ok = ok
        self.message = message
        self.status = status
        self.reply = reply
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

    /// Creates a status.
    public init(
        pid: Int32, version: String, startedAt: Date, server: ServerInfo?, serverProblem: String?,
        waitingNotices: Int, plugins: [String], configFiles: [String], nextDue: Date?, identity: String? = nil
    ) {
        self.identity = identity
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

enum ControlCoding {
    static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(type, from: data)
    }

    /// Why a request could not be decoded, in a sentence and without echoing the request back.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        let context: DecodingError.Context
        switch error {
        case .dataCorrupted(let found): context = found
        case .keyNotFound(_, let found): context = found
        case .typeMismatch(_, let found): context = found
        case .valueNotFound(_, let found): context = found
        @unknown default: return "not a request"
        }
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        let what = context.codingPath.isEmpty ? "not a request" : "\(path) is wrong"
        return "\(what) (\(context.debugDescription.prefix(200)))"
    }
}
