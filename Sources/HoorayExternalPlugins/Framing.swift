import Foundation
import HoorayKit
import HoorayText

/// Why a plugin's standard output could not be read as frames; the plugin is stopped for it.
public enum FrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Bytes that are no frame header, such as a log line or a `print` left in.
    case outsideFrame(String)
    /// A header line that is not `Content-Length` or `Content-Type`, or a length that is no number.
    case badHeader(String)
    /// A header without its empty line within 4 KiB.
    case headerTooLong
    /// A body over the limit.
    case bodyTooLarge(Int)

    public var description: String {
        switch self {
        case .outsideFrame(let text):
            "wrote \(Self.quote(text)) to standard output outside a frame; standard output is for protocol frames only (log to standard error)"
        case .badHeader(let line):
            "sent the header line \(Self.quote(line)); only Content-Length and Content-Type are allowed"
        case .headerTooLong:
            "sent a frame header longer than 4 KiB without the empty line that ends it"
        case .bodyTooLarge(let length):
            "sent a message of \(length) bytes; the most is \(FrameDecoder.maximumBody) bytes (1 MiB)"
        }
    }

    static func quote(_ bytes: String) -> String {
        let shown = TerminalText.safe(String(bytes.prefix(60)))
        return "“" + shown + (bytes.count > 60 ? "…" : "") + "”"
    }
}

/// Cuts a byte stream into the bodies of `Content-Length` frames, as in the Language Server Protocol.
///
/// It reports bytes that cannot begin a header as soon as it sees them, and a body over
/// ``maximumBody`` as soon as its header is read, without waiting for the body.
public struct FrameDecoder: Sendable {
    /// The largest body accepted: 1 MiB.
    public static let maximumBody = 1 << 20
    /// The longest header accepted.
    public static let maximumHeader = 4096

    var buffer: [UInt8] = []
    var start = 0
    var bodyLength: Int?

    /// Creates a decoder with nothing read yet.
    public init() {}

    /// Adds bytes read from the stream.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 65536 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole body, or `nil` until more bytes arrive.
    public mutating func next() throws(FrameError) -> Data? {
        if bodyLength == nil {
            guard let length = try readHeader() else { return nil }
            bodyLength = length
        }
        guard let length = bodyLength, buffer.count - start >= length else { return nil }
        let body = Data(buffer[start..<start + length])
        start += length
        bodyLength = nil
        return body
    }

    static let names = ["content-length", "content-type"]

    /// Reads a whole header when it is there, checking each line as it comes.
    mutating func readHeader() throws(FrameError) -> Int? {
        var lineStart = start
        var length: Int?
        var index = start
        while index < buffer.count {
            if buffer[index] == UInt8(ascii: "\n") {
                var lineEnd = index
                if lineEnd > lineStart, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
                let line = String(decoding: buffer[lineStart..<lineEnd], as: UTF8.self)
                if line.isEmpty {
                    guard lineStart > start else { throw .outsideFrame("\n") }
                    guard let length else { throw .badHeader("(no Content-Length)") }
                    start = index + 1
                    return length
                }
                if let value = try Self.contentLength(in: line) { length = value }
                lineStart = index + 1
            }
            index += 1
            if index - start > Self.maximumHeader { throw .headerTooLong }
        }
        // An unfinished line must still be able to become a header.
        var partial = String(decoding: buffer[lineStart..<buffer.count], as: UTF8.self).lowercased()
        if partial.hasSuffix("\r") { partial.removeLast() }
        if !partial.isEmpty, !Self.names.contains(where: { $0.hasPrefix(partial) || partial.hasPrefix($0 + ":") }) {
            let text = String(decoding: buffer[lineStart..<buffer.count], as: UTF8.self)
            throw lineStart == start ? .outsideFrame(text) : .badHeader(text)
        }
        return nil
    }

    /// The length a header line gives, `nil` for another allowed header.
    static func contentLength(in line: String) throws(FrameError) -> Int? {
        guard let colon = line.firstIndex(of: ":") else { throw .outsideFrame(line) }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "content-length":
            guard let length = Int(value), length >= 0 else { throw .badHeader(line) }
            guard length <= maximumBody else { throw .bodyTooLarge(length) }
            return length
        case "content-type":
            return nil
        default:
            throw .badHeader(line)
        }
    }

    /// A body framed for sending.
    public static func frame(_ body: Data) -> Data {
        var framed = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        framed.append(body)
        return framed
    }
}
