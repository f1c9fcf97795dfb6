/// A reminder a plugin declares by what it is built from, so that it is built only when that changed
/// (``ReminderBook/replaceAll(declaring:)``).
///
/// A plugin that declares many reminders from its configuration, such as one for every
/// `[[plugins.reminders.reminder]]` entry, gives each its id, a digest of everything the reminder is
/// built from (``SourceDigest``), and how to build it. The engine keeps the digest beside the stored
/// reminder: at the next start a reminder whose digest is the same is neither built nor stored
/// again, and keeps its next due instant.
public struct DeclaredReminder: Sendable {
    /// The reminder's id, as the built reminder has it.
    public var id: String
    /// A digest of everything the reminder is built from; `nil` when it is built every time.
    public var sourceDigest: String?
    /// Builds the reminder; called only when no reminder with this id and digest is stored.
    public var build: @Sendable () throws -> Reminder

    /// Declares a reminder built only when its source changed.
    ///
    /// - Parameters:
    ///   - id: The reminder's id; the built reminder must have it.
    ///   - sourceDigest: A digest of everything that goes into the reminder: each value the plugin
    ///     reads from its configuration and from elsewhere (the time zone it falls back on, say).
    ///     The engine adds Hooray's version, so a newer Hooray builds every reminder once again.
    ///   - build: Builds the reminder.
    public init(id: String, sourceDigest: String, build: @escaping @Sendable () throws -> Reminder) {
        self.id = id
        self.sourceDigest = sourceDigest
        self.build = build
    }

    /// Declares a reminder built already: it is stored as given, as ``ReminderBook/replaceAll(with:)`` does.
    ///
    /// - Parameter reminder: The reminder.
    public init(_ reminder: Reminder) {
        self.id = reminder.id
        self.sourceDigest = nil
        self.build = { reminder }
    }
}

/// A digest of the values a reminder is built from, for ``DeclaredReminder``: the same values in the
/// same order give the same digest in every process (unlike `Hasher`, which is seeded at random).
///
/// It is 64 bits, mixed eight bytes at a time (a multiply and a shift, each step one-to-one, so two
/// values that differ in one word never give the same digest), with each value's length in front of
/// it so that `("ab", "c")` and `("a", "bc")` differ; it tells changes apart, it is no protection
/// against an attacker.
public struct SourceDigest: Sendable, Hashable {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Starts a digest.
    public init() {}

    private mutating func add(word: UInt64) {
        state = (state ^ word) &* 0x9e37_79b9_7f4a_7c15
        state ^= state >> 29
    }

    /// Adds a text.
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            DigestWords.forEach(in: UnsafeRawBufferPointer(bytes)) { add(word: $0) }
        }
    }

    /// Adds a text that may be absent; absent and empty differ.
    public mutating func add(_ text: String?) {
        if let text {
            add(word: 1)
            add(text)
        } else {
            add(word: 0)
        }
    }

    /// Adds a whole number.
    public mutating func add(_ number: Int) {
        add(word: UInt64(bitPattern: Int64(number)))
    }

    /// The digest as 16 hexadecimal digits.
    public var value: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: state >> UInt64(60 - 4 * index)) & 0xF
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 16
        }
    }
}
