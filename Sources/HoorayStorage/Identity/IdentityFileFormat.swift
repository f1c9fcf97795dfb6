import Foundation

/// The text format of the identity file, version 1.
///
/// ```
/// hooray-identity v1
/// user-id = 3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c
/// created = 2026-11-22T10:00:00Z
/// ```
///
/// The first line names the format and its version, so that a later Hooray can change the
/// format and an older one can tell instead of misreading it. Then one `key = value` per line;
/// blank lines and lines starting with `#` are ignored. Every line ends with a newline, which is
/// how a file cut short is told from a complete one.
enum IdentityFileFormat {
    static let magic = "hooray-identity"
    static let version = "v1"
    /// Far more than a valid file needs (about 100 bytes); anything larger is not ours.
    static let maximumSize = 4096

    static func render(_ identity: AnonymousIdentity) -> String {
        """
        \(magic) \(version)
        # Hooray's anonymous id, made at random on this computer. `hooray identity` explains it.
        user-id = \(identity.headerValue)
        created = \(formatDate(identity.createdAt))

        """
    }

    /// What a file's bytes hold: an identity, or what is wrong with them.
    enum Parsed: Equatable {
        case identity(AnonymousIdentity)
        case problem(IdentityError.Problem)
    }

    /// Parses the file's bytes, or says what is wrong with them.
    static func parse(_ bytes: [UInt8]) -> Parsed {
        if bytes.isEmpty { return .problem(.truncated) }
        if bytes.contains(0) { return .problem(.notText) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .problem(.notText) }
        // Split on the byte: as Characters, "\r\n" is one grapheme that is not "\n".
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(Substring($0))
        }
        let complete = lines.last == ""
        if complete { lines.removeLast() }

        let header = lines[0].trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: " ", omittingEmptySubsequences: true)
        guard header.count == 2, header[0] == magic else {
            // A first line cut short before its newline is still recognisably ours.
            if !complete && lines.count == 1 && "\(magic) \(version)".hasPrefix(lines[0]) {
                return .problem(.truncated)
            }
            return .problem(.notAnIdentityFile)
        }
        guard header[1] == version else { return .problem(.unsupportedVersion(String(header[1].prefix(16)))) }
        // A last line without its newline means the writer stopped part-way.
        guard complete else { return .problem(.truncated) }

        var values: [String: String] = [:]
        for (index, line) in lines.enumerated().dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let lineNumber = index + 1
            guard let equals = trimmed.firstIndex(of: "=") else { return .problem(.malformedLine(lineNumber)) }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard key == "user-id" || key == "created" else {
                return .problem(.unknownKey(String(key.prefix(32)), line: lineNumber))
            }
            guard values[key] == nil else { return .problem(.duplicateKey(key, line: lineNumber)) }
            values[key] = value
        }
        guard let userIDText = values["user-id"], let createdText = values["created"] else {
            return .problem(.truncated)
        }
        guard userIDText.utf8.count == 36, let userID = UUID(uuidString: userIDText) else {
            return .problem(.malformedUserID)
        }
        guard let createdAt = parseDate(createdText) else { return .problem(.malformedCreated) }
        guard let identity = AnonymousIdentity(userID: userID, createdAt: createdAt) else {
            return .problem(.notARandomUserID)
        }
        return .identity(identity)
    }

    static func formatDate(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
    }

    static func parseDate(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).parse(text)
    }
}
