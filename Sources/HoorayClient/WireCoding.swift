import FoundationEssentials
import Glibc
import HoorayBasics

/// The version of the control protocol `hooray` and `hoorayd` speak (docs/protocol.md).
public let controlAPIVersion = 1

/// The one JSON path of the control protocol: every request and answer line, of `hooray`, its front
/// door, `hoorayd` and the tests, is written and read here. FoundationEssentials' coder (no ICU, no
/// full Foundation): measured with `perf stat`, it adds 0.6–1.0 ms to a front door's run that asks
/// hoorayd (1.5 ms in a small program of its own), and nothing to one that does not use it.
package enum ControlCoding {
    /// `value` as one line of JSON, keys sorted, with its newline.
    package static func encode<T: Encodable>(_ value: T) throws -> Data {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// A value read from one line of JSON (without its newline, or with it).
    package static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: data)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// Why a request could not be decoded, in a sentence and without echoing the request back.
    package static func reason(_ error: any Error) -> String {
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

    /// Refuses an answer line of another protocol version, saying which and what to do.
    ///
    /// - Throws: ``ControlError`` (refused: the daemon did nothing) when the versions differ.
    package static func checkVersion(ofAnswer line: Data) throws(ControlError) {
        // A hoorayd of another version (running on after an upgrade) speaks another protocol: it
        // refused the request without running it, so say which and how to put it right.
        let version = (try? decode(VersionProbe.self, from: line))?.apiVersion
        guard version == controlAPIVersion else {
            throw ControlError(
                message:
                    "the running hoorayd speaks control protocol \(version.map(String.init) ?? "0") and this hooray speaks \(controlAPIVersion) (hoorayd is probably from before an upgrade), so nothing was done; restart it with `systemctl --user restart hooray` and try again",
                requestWasRefused: true)
        }
    }
}

/// The one member every answer of every protocol version has had since versions were numbered.
package struct VersionProbe: Decodable {
    package var apiVersion: Int?

    enum CodingKeys: String, CodingKey {
        case apiVersion = "api_version"
    }
}

/// The longest answer `hooray` reads from the daemon: a command's reply may be large (a list of
/// ten thousand habits), unlike a request, and the daemon is trusted.
package let maxResponseBytes = 256 << 20

/// A failure on the control channel.
public struct ControlError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// Whether the daemon certainly did not act on the request (it speaks another protocol).
    public var requestWasRefused = false
    /// Whether the daemon runs but is too busy to take the connection (its queue of connections is
    /// full, as when it is stopped): nothing was sent, and trying again later may work.
    public var isBusy = false
    public var description: String { message }

    /// Creates an error.
    public init(message: String, requestWasRefused: Bool = false, isBusy: Bool = false) {
        self.message = message
        self.requestWasRefused = requestWasRefused
        self.isBusy = isBusy
    }

    /// Another user's process listens on the control socket: nothing was sent to it.
    package static func foreignServer(path: String, uid: uid_t?) -> ControlError {
        let who = uid.map { "a process of another user (uid \($0))" } ?? "a process whose user cannot be told"
        return ControlError(
            message:
                "the control socket \(path) is served by \(who), not by your hoorayd (you are uid \(geteuid())), "
                + "so nothing was sent to it. Someone may have put their own socket in your runtime folder: stop "
                + "using it, remove \(ShellWord.quoted(path)) and start hoorayd again "
                + "(`systemctl --user restart hooray`); check that XDG_RUNTIME_DIR is your own private folder",
            requestWasRefused: true)
    }
}
