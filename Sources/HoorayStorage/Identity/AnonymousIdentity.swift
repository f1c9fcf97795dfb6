import Foundation

/// The anonymous identity of this computer's Hooray user: a random UUID and when it was made.
///
/// It links the moments a user sends to an AI service without saying who they are: it is made at
/// random on this computer, holds nothing about the person, and is sent only as the `x-user-id`
/// header to the AI endpoint the user configured. Only random (version 4) UUIDs are accepted, so
/// an ``AnonymousIdentity`` value always yields a well-formed ``headerValue``.
public struct AnonymousIdentity: Sendable, Hashable {
    /// The random identifier.
    public let userID: UUID
    /// When the identity was made, to the second.
    public let createdAt: Date

    /// Wraps an identifier and its creation time.
    ///
    /// - Parameters:
    ///   - userID: A random (version 4, RFC 9562 variant) UUID.
    ///   - createdAt: When it was made; kept to whole seconds, as it is stored.
    /// - Returns: `nil` when `userID` is not a version 4 UUID (for example the all-zero UUID).
    public init?(userID: UUID, createdAt: Date) {
        guard Self.isRandomUUID(userID) else { return nil }
        self.userID = userID
        self.createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
    }

    /// The value of the `x-user-id` header: the UUID in lowercase canonical form.
    ///
    /// For example `3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c`: 36 characters, lowercase hexadecimal
    /// digits in groups of 8-4-4-4-12.
    public var headerValue: String { userID.uuidString.lowercased() }

    /// Whether a UUID carries the version 4 and RFC 9562 variant bits of a random UUID.
    static func isRandomUUID(_ uuid: UUID) -> Bool {
        let bytes = uuid.uuid
        return bytes.6 >> 4 == 4 && bytes.8 & 0xC0 == 0x80
    }
}

extension AnonymousIdentity {
    /// Makes a new identity from a fresh random UUID.
    ///
    /// - Parameter now: When it is made.
    /// - Returns: The identity, or `nil` in the unlikely case the system's UUID is not a version 4 one.
    public static func make(now: Date) -> AnonymousIdentity? {
        AnonymousIdentity(userID: UUID(), createdAt: now)
    }

    /// The identity as the text of an identity file, which is also what a keyring item holds.
    public var storedText: String { IdentityFileFormat.render(self) }

    /// Reads the text ``storedText`` writes.
    ///
    /// - Parameter storedText: The text of an identity file or keyring item.
    /// - Returns: `nil` when the text is not a well-formed identity with a random (version 4) UUID.
    public init?(storedText: String) {
        guard case .identity(let identity) = IdentityFileFormat.parse(Array(storedText.utf8)) else { return nil }
        self = identity
    }
}
