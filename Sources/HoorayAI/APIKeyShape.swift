/// What an API key must look like before `hooray ai set-key` stores it.
///
/// A key is one line of visible ASCII (letters, digits and symbols, no spaces), so it can never
/// break out of its `Authorization` header line, and of a plausible length: a paste that caught a
/// second line, a stray space, typographic quotes or a whole file is refused before anything is
/// stored. Messages say what is wrong and how to fix it, and never repeat the key.
public enum APIKeyShape {
    /// The lengths a key may have, in characters.
    public static let lengthRange = 8...4096

    /// Checks a key as typed or piped in, without one trailing line break.
    ///
    /// - Parameter input: What was read: the key, optionally followed by one `\n` or `\r\n`.
    /// - Returns: The key without the trailing line break.
    /// - Throws: ``APIKeyShapeError`` naming the problem and the fix.
    public static func check(_ input: String) throws(APIKeyShapeError) -> String {
        var bytes = Array(input.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        if bytes.last == 0x0A {
            bytes.removeLast()
            if bytes.last == 0x0D { bytes.removeLast() }
        }
        guard !bytes.isEmpty else {
            throw APIKeyShapeError(
                problem: "No key was given.",
                fix: "Paste the key and press Enter, or pipe it in: `hooray ai set-key < FILE`.")
        }
        guard bytes.count <= lengthRange.upperBound else {
            throw APIKeyShapeError(
                problem: "What was given is longer than any API key (more than \(lengthRange.upperBound) characters).",
                fix: "Give the key alone, on one line: copy it again from your provider, without anything around it.")
        }
        if bytes.contains(0x0A) || bytes.contains(0x0D) {
            throw APIKeyShapeError(
                problem: "The key has a line break inside it.",
                fix: "Give the key alone, on one line: copy it again from your provider, without anything around it.")
        }
        if bytes.contains(0x20) || bytes.contains(0x09) {
            throw APIKeyShapeError(
                problem: "The key contains spaces or tabs, which an API key never has.",
                fix: "Copy the key alone, without spaces around or inside it.")
        }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw APIKeyShapeError(
                problem: "The key contains characters other than visible ASCII letters, digits and symbols "
                    + "(such as control characters, accented letters or typographic quotes).",
                fix: "Copy it again from your provider's page as plain text.")
        }
        guard bytes.count >= lengthRange.lowerBound else {
            throw APIKeyShapeError(
                problem: "The key is \(bytes.count) characters long, too short to be an API key "
                    + "(at least \(lengthRange.lowerBound)).",
                fix: "Copy the whole key from your provider; keys are usually 20 characters or more.")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Why a key was refused by ``APIKeyShape/check(_:)``; the description never contains the key.
public struct APIKeyShapeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as a sentence.
    public let problem: String
    /// What to do about it, as a sentence.
    public let fix: String

    /// Creates an error from its parts.
    ///
    /// - Parameters:
    ///   - problem: What is wrong, as a sentence.
    ///   - fix: What to do about it, as a sentence.
    public init(problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }

    /// The problem followed by the fix.
    public var description: String { "\(problem) \(fix)" }
}
