/// A table of the configuration as a ``ConfigTableDecodable`` type reads it: its keys in file order,
/// and each value as the configuration decoder would decode a `String` from it.
///
/// Hooray's own (`package`): the configuration loader hands one to a built-in type that reads many
/// tables, such as the reminders plugin's `[[plugins.reminders.reminder]]` entries.
package protocol ConfigTableReader {
    /// The number of keys.
    var count: Int { get }

    /// The key at a place, from 0 to `count - 1`, in the order the file writes the keys.
    func key(at index: Int) -> String

    /// The value at a place as text, exactly as the configuration decoder decodes a `String` from
    /// it: a string, or a TOML date or time in its text form (`15:00` for a local time on the minute).
    ///
    /// - Returns: `nil` when the value decodes to no `String`, such as a number or a table.
    func string(at index: Int) -> String?
}

/// A configuration type that can also be read straight from its table, without a `Decoder`.
///
/// Hooray's own (`package`): a file of 100,000 reminders decodes 100,000 tables, and the keyed
/// containers of `Decodable` cost more than reading the file. The loader first asks
/// ``init(readingGood:)``; when that gives `nil`, it decodes the table through `init(from:)`, which
/// reports each problem at its `file:line:column`. So the fast reading never says what is wrong: it
/// gives a value only when the table is good in every respect, and then the very value that
/// `init(from:)` would give, with no warning lost (a key it does not know is a `nil`, since
/// `init(from:)` warns about it).
package protocol ConfigTableDecodable: Decodable, Sendable {
    /// The value, when the table holds a good one and nothing else; `nil` when anything is off.
    ///
    /// - Parameter table: The table.
    init?(readingGood table: some ConfigTableReader)
}
