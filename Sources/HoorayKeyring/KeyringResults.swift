/// What looking a secret up in the keyring found.
public enum KeyringLookup: Sendable, Equatable {
    /// Exactly one unlocked item of this kind; its value.
    case found(String)
    /// No item of this kind.
    case notFound
    /// An item of this kind exists but is locked, so its value cannot be read without the user
    /// unlocking the keyring (see ``Keyring/unlock(promptTimeout:)``).
    case locked
    /// Several unlocked items of this kind, so none can be trusted to be the one Hooray wrote.
    ///
    /// ``Keyring/store(_:value:)`` and ``Keyring/delete(_:)`` clean this up.
    case ambiguous(count: Int)
    /// The keyring cannot be asked: no session bus, no Secret Service, no answer in time, or an error.
    ///
    /// - Parameter reason: A short explanation for a person, such as "the keyring did not answer in 5 s".
    case unavailable(reason: String)
}

/// Whether the desktop's keyring can be used right now.
public enum KeyringState: Sendable, Equatable {
    /// A Secret Service answers and its default collection is unlocked.
    ///
    /// - Parameter service: A name for people, such as "GNOME Keyring", or "Secret Service" when
    ///   the program behind `org.freedesktop.secrets` is not one Hooray knows.
    case available(service: String)
    /// A Secret Service answers, but its default collection is locked.
    ///
    /// - Parameter service: A name for people, as for ``available(service:)``.
    case locked(service: String)
    /// No Secret Service can be reached.
    ///
    /// - Parameter reason: A short explanation for a person.
    case unavailable(reason: String)
}
