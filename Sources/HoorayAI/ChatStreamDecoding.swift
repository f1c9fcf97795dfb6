import Foundation

/// Why a streamed answer ended before the service said it was done.
///
/// What arrived before is kept and shown; ``description`` is the line that follows it, for a
/// person: what happened, never the bytes received.
public struct ChatStreamBroken: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// The service closed the connection without its closing `[DONE]`.
        case cutOff
        /// Nothing arrived for this many seconds.
        case stalled(seconds: Int)
        /// A chunk was not what the protocol promises; `what` says how.
        case malformed(what: String)
        /// One chunk was larger than this many bytes.
        case chunkTooLarge(limit: Int)
        /// The answer grew past this many characters.
        case tooLong(limit: Int)
        /// The stream brought more than this many bytes.
        case tooManyBytes(limit: Int)
        /// The answer took longer than this many seconds in all.
        case tookTooLong(seconds: Int)
        /// The answer held markup (a tag or an entity), which Hooray does not show.
        case markup
        /// The service sent an error in the stream; `message` is its own words, made safe.
        case serviceError(message: String)
    }

    /// What went wrong.
    public let reason: Reason

    /// Creates the error.
    public init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .cutOff:
            "the AI service stopped in the middle of its answer (the connection closed before it said it was done)"
        case .stalled(let seconds):
            "the AI service sent nothing more for \(seconds) s, so Hooray stopped waiting"
        case .malformed(let what):
            "the AI service's answer could not be read: \(what)"
        case .chunkTooLarge(let limit):
            "the AI service sent a piece of its answer larger than \(limit / 1024) KiB, which Hooray does not read"
        case .tooLong(let limit):
            "the answer grew past \(limit) characters, so Hooray stopped reading it"
        case .tooManyBytes(let limit):
            "the AI service sent more than \(limit / 1024) KiB for one answer, so Hooray stopped reading it"
        case .tookTooLong(let seconds):
            "the answer took longer than \(seconds / 60) minutes in all, so Hooray stopped reading it"
        case .markup:
            "the answer held markup (such as <b>), and Hooray shows plain text only"
        case .serviceError(let message):
            "the AI service reported an error: \(message)"
        }
    }
}

/// Reads an OpenAI-compatible streamed chat answer (`stream: true`): server-sent events, each
/// `data:` a JSON chunk whose `choices[0].delta.content` is the next piece of text, until
/// `data: [DONE]`.
///
/// Decoding is strict: every event must be such a chunk; a line longer than ``maxLineBytes``, text
/// past ``maxCharacters`` or markup ends the answer with ``ChatStreamBroken``. Text is handed out
/// as soon as it cannot be the start of markup: a `<` or `&` waits until what follows shows it is
/// plain text.
struct ChatStreamDecoder {
    /// The longest line read, in bytes: a chunk is a few hundred.
    var maxLineBytes = 64 * 1024
    /// The most characters of answer accepted.
    var maxCharacters = 8000

    /// Whether `[DONE]` arrived.
    private(set) var isDone = false
    /// Whether any event arrived.
    private(set) var sawEvent = false
    private var line = Data()
    private var data: [String] = []
    /// All the answer's text so far, as Unicode scalars, and how many were handed out: a character
    /// that arrives in two pieces (a skin tone after its emoji, an accent after its letter) is
    /// handed out piece by piece, never lost.
    private var text: [Unicode.Scalar] = []
    private var characters = 0
    private var handedOut = 0
    /// The plain text before markup that ended the answer, for the caller to show before the error.
    private(set) var pendingMarkup = ""

    /// Reads the next bytes.
    ///
    /// - Returns: The text that may be shown now, possibly empty.
    /// - Throws: ``ChatStreamBroken`` when the stream is broken; nothing more should be fed.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(ChatStreamBroken) -> String {
        guard !isDone else { return "" }
        var added = false
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                added = try endLine() || added
                if isDone { break }
            } else {
                line.append(byte)
                guard line.count <= maxLineBytes else { throw ChatStreamBroken(.chunkTooLarge(limit: maxLineBytes)) }
            }
        }
        return added || isDone ? try release() : ""
    }

    /// Says the stream ended, and hands out what was held back; ``isDone`` then says whether the
    /// service finished (`[DONE]`) or stopped in the middle.
    ///
    /// - Returns: The rest of the text.
    /// - Throws: ``ChatStreamBroken`` when the last line was broken, or the rest is markup.
    mutating func finish() throws(ChatStreamBroken) -> String {
        if !isDone, !line.isEmpty { _ = try endLine() }
        if !isDone, !data.isEmpty { _ = try dispatch() }
        return try release(all: true)
    }

    /// The text that was not handed out yet (held back as a possible start of markup).
    var heldBack: String { Self.string(text[handedOut...]) }

    /// Ends one line; returns whether text was added.
    private mutating func endLine() throws(ChatStreamBroken) -> Bool {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return try dispatch() }
        guard let field = String(data: line, encoding: .utf8) else {
            throw ChatStreamBroken(.malformed(what: "a line is not UTF-8 text"))
        }
        if field.hasPrefix(":") { return false }  // A comment, such as a keep-alive.
        let (name, value): (Substring, Substring)
        if let colon = field.firstIndex(of: ":") {
            name = field[..<colon]
            let after = field[field.index(after: colon)...]
            value = after.hasPrefix(" ") ? after.dropFirst() : after
        } else {
            (name, value) = (field[...], "")
        }
        switch name {
        case "data": data.append(String(value))
        case "event", "id", "retry": break
        default: throw ChatStreamBroken(.malformed(what: "a line is not a server-sent event (text/event-stream)"))
        }
        return false
    }

    /// Handles the event the lines so far make; returns whether text was added.
    private mutating func dispatch() throws(ChatStreamBroken) -> Bool {
        guard !data.isEmpty else { return false }
        let payload = data.joined(separator: "\n")
        data.removeAll()
        sawEvent = true
        if payload == "[DONE]" {
            isDone = true
            return true
        }
        let piece = try Self.content(of: payload)
        guard !piece.isEmpty else { return false }
        text += piece.unicodeScalars
        characters += piece.count
        guard characters <= maxCharacters else { throw ChatStreamBroken(.tooLong(limit: maxCharacters)) }
        return true
    }

    /// The text of one chunk: `choices[0].delta.content`, empty for a chunk without content (the
    /// first, with the role; the last, with `finish_reason`).
    static func content(of payload: String) throws(ChatStreamBroken) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
            throw ChatStreamBroken(.malformed(what: "a chunk is not a JSON object"))
        }
        if let error = object["error"] {
            let message = (error as? [String: Any])?["message"] as? String ?? (error as? String) ?? "no message"
            throw ChatStreamBroken(.serviceError(message: PraiseText.sanitized(message, limit: 200)))
        }
        guard let choices = object["choices"] as? [Any] else {
            throw ChatStreamBroken(.malformed(what: "a chunk has no choices list"))
        }
        guard let first = choices.first else { return "" }
        guard let choice = first as? [String: Any], let delta = choice["delta"] as? [String: Any] else {
            throw ChatStreamBroken(.malformed(what: "a chunk's choices[0].delta is not an object"))
        }
        switch delta["content"] {
        case nil, is NSNull: return ""
        case let content as String: return content
        default: throw ChatStreamBroken(.malformed(what: "a chunk's choices[0].delta.content is not text"))
        }
    }

    /// Hands out the text that cannot start markup any more; all of it when `all`.
    private mutating func release(all: Bool = false) throws(ChatStreamBroken) -> String {
        if let start = Self.markupStart(in: text) {
            // What came before the markup is kept; the rest is not shown.
            pendingMarkup = start > handedOut ? Self.string(text[handedOut..<start]) : ""
            handedOut = max(handedOut, start)
            throw ChatStreamBroken(.markup)
        }
        var end = text.count
        if !all, let open = Self.openStart(in: text, from: handedOut) { end = open }
        guard end > handedOut else { return "" }
        let released = Self.string(text[handedOut..<end])
        handedOut = end
        return released
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// Where the first markup starts, as ``PraiseText/containsMarkup(_:)`` defines it.
    static func markupStart(in scalars: [Unicode.Scalar]) -> Int? {
        for index in scalars.indices where scalars[index] == "<" || scalars[index] == "&" {
            let end = min(scalars.count, index + 200)
            if PraiseText.containsMarkup(string(scalars[index..<end])) { return index }
        }
        return nil
    }

    /// Where text that may still become markup starts (a `<` before a letter with no `>` yet, or an
    /// `&` with no `;` yet within an entity's length), from `start` on.
    static func openStart(in scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                if next.map({ isWordScalar($0) || $0 == "/" || $0 == "!" }) ?? true {
                    if !scalars[(index + 1)...].contains(">") { return index }
                }
            } else if scalar == "&" {
                let after = scalars[(index + 1)...].prefix(13)
                let name = after.prefix { isWordScalar($0) || $0 == "#" }
                if name.count == after.count, after.count < 13 { return index }
            }
            index += 1
        }
        return nil
    }
}
