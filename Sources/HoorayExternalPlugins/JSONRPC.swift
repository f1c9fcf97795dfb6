import Foundation
import HoorayKit
import HoorayText

/// A JSON-RPC 2.0 request id: a number or a string.
public enum RPCID: Sendable, Hashable, CustomStringConvertible {
    /// A numeric id.
    case number(Int64)
    /// A string id.
    case string(String)

    init?(_ value: JSONValue?) {
        switch value {
        case .number(let number) where number.rounded() == number && abs(number) < 9e15: self = .number(Int64(number))
        case .string(let text): self = .string(text)
        default: return nil
        }
    }

    var json: JSONValue {
        switch self {
        case .number(let number): .number(Double(number))
        case .string(let text): .string(text)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): String(number)
        case .string(let text): "\"\(text)\""
        }
    }
}

/// A JSON-RPC error: a code and a message, as the plugin protocol's table lists them.
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public var code: Int
    /// The message, for a person.
    public var message: String

    /// Creates an error.
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    static func parse(_ message: String) -> RPCError { RPCError(code: -32700, message: message) }
    static func invalidRequest(_ message: String) -> RPCError { RPCError(code: -32600, message: message) }
    static func methodNotFound(_ method: String, known: [String]) -> RPCError {
        var message = "there is no method \"\(TerminalText.safe(String(method.prefix(60))))\""
        if let near = NameSuggestion.closest(to: method, among: known) { message += "; did you mean \(near)?" }
        return RPCError(code: -32601, message: message)
    }
    static func invalidParams(_ message: String) -> RPCError { RPCError(code: -32602, message: message) }
    static func internalError(_ message: String) -> RPCError { RPCError(code: -32603, message: message) }
    static func permission(_ message: String) -> RPCError { RPCError(code: -32001, message: message) }
    static func limit(_ message: String) -> RPCError { RPCError(code: -32002, message: message) }
    static func unavailable(_ message: String) -> RPCError { RPCError(code: -32003, message: message) }
}

/// One JSON-RPC 2.0 message of the plugin protocol.
public enum RPCMessage: Sendable, Hashable {
    /// A call that wants an answer.
    case request(id: RPCID, method: String, params: [String: JSONValue])
    /// A call without an answer.
    case notification(method: String, params: [String: JSONValue])
    /// A successful answer.
    case result(id: RPCID, JSONValue)
    /// A failed answer; the id is `nil` when the request could not be read.
    case error(id: RPCID?, RPCError)

    /// Reads a message from a frame's body.
    ///
    /// - Throws: ``RPCError`` with -32700 when the body is not JSON, -32600 when it is not a message.
    public init(body: Data) throws(RPCError) {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            throw .parse("sent a message that is not JSON (\(body.count) bytes)")
        }
        guard case .object(let object) = value else {
            throw .invalidRequest("sent a JSON value that is not a JSON-RPC object (batches are not used)")
        }
        guard object["jsonrpc"] == .string("2.0") else {
            throw .invalidRequest("sent a message without \"jsonrpc\": \"2.0\"")
        }
        let id = object["id"]
        if let method = object["method"] {
            guard case .string(let name) = method else { throw .invalidRequest("sent a method that is not a string") }
            let params: [String: JSONValue]
            switch object["params"] {
            case nil, .null?: params = [:]
            case .object(let members)?: params = members
            default: throw .invalidRequest("sent params for \(name) that are not an object")
            }
            if id == nil {
                self = .notification(method: name, params: params)
            } else if let rpcID = RPCID(id) {
                self = .request(id: rpcID, method: name, params: params)
            } else {
                throw .invalidRequest("sent a request whose id is neither a number nor a string")
            }
            return
        }
        guard let rpcID = RPCID(id) else {
            if case .object(let error)? = object["error"] {
                self = .error(id: nil, Self.error(from: error))
                return
            }
            throw .invalidRequest("sent an answer without an id it could be matched to")
        }
        if let result = object["result"] {
            self = .result(id: rpcID, result)
        } else if case .object(let error)? = object["error"] {
            self = .error(id: rpcID, Self.error(from: error))
        } else {
            throw .invalidRequest("sent an answer to \(rpcID) with neither result nor error")
        }
    }

    static func error(from object: [String: JSONValue]) -> RPCError {
        var code = -32603
        if case .number(let number)? = object["code"], number.rounded() == number, abs(number) < 1e9 {
            code = Int(number)
        }
        return RPCError(code: code, message: object["message"]?.stringValue ?? "(no message)")
    }

    /// The message as JSON.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": .string("2.0")]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = id.json
            object["method"] = .string(method)
            object["params"] = .object(params)
        case .notification(let method, let params):
            object["method"] = .string(method)
            object["params"] = .object(params)
        case .result(let id, let result):
            object["id"] = id.json
            object["result"] = result
        case .error(let id, let error):
            object["id"] = id?.json ?? .null
            object["error"] = .object(["code": .number(Double(error.code)), "message": .string(error.message)])
        }
        return .object(object)
    }

    /// The message framed for sending.
    public var frame: Data {
        let encoder = JSONValue.makeEncoder()
        let body = (try? encoder.encode(json)) ?? Data("{}".utf8)
        return FrameDecoder.frame(body)
    }
}

/// Instants on the plugin wire: ISO 8601 in UTC, with or without fractions of a second.
enum WireInstant {
    static func string(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func json(_ date: Date?) -> JSONValue {
        date.map { .string(string($0)) } ?? .null
    }

    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }
}
