import Foundation
import HoorayKit

/// An importer a plugin offers: it reads another program's export into the plugin's records,
/// run by `hooray import --from NAME FILE`.
///
/// `hooray` finds the plugin that offers the importer by its name, asks it for an ``ImportPlan``
/// with ``ImportingPlugin/planImport(_:records:)``, shows the plan, and with `--apply` adds its
/// records in one transaction. The plugin never writes: a plan is only read, so a preview changes
/// nothing and an import that fails halfway leaves nothing half-added.
public struct ImporterSpec: Sendable, Hashable {
    /// The name after `--from`, such as `loop`: lowercase letters, digits and dashes.
    public var name: String
    /// One line saying what it reads, for `hooray import --help`.
    public var summary: String

    /// Creates an importer's description.
    ///
    /// - Parameters:
    ///   - name: The name after `--from`.
    ///   - summary: One line saying what it reads.
    public init(name: String, summary: String) {
        self.name = name
        self.summary = summary
    }
}

/// What `hooray import --from NAME FILE` asks of a plugin's importer.
public struct ImportRequest: Sendable, Hashable {
    /// The importer's name, one of the plugin's ``ImportingPlugin/importers``.
    public var importer: String
    /// The file or folder the user gave, as an absolute path.
    public var path: String
    /// The current time.
    public var now: Date
    /// The user's time zone.
    public var timeZone: TimeZone
    /// Whether the plan will be applied (`--apply`) rather than only shown, for the words of its
    /// notes: "3 days added" rather than "3 days to add".
    public var apply: Bool

    /// Creates a request.
    public init(importer: String, path: String, now: Date, timeZone: TimeZone, apply: Bool = false) {
        self.importer = importer
        self.path = path
        self.now = now
        self.timeZone = timeZone
        self.apply = apply
    }
}

/// What an importer would add: records, and lines for the user about what it found.
///
/// Give each record an id derived from the other program's data (its habit's name, say), so that
/// importing the same file twice finds the records already there and adds nothing.
public struct ImportPlan: Sendable, Hashable {
    /// The records to add. One with the kind and id of a record already stored is not added.
    public var records: [StoredRecord]
    /// Records already stored that the import brings up to date, such as a habit with days the
    /// other program has and the store has not yet: they are written over the stored ones.
    public var updates: [StoredRecord] = []
    /// How many of what the file holds are already there, by kind, as the plugin found them.
    public var alreadyThere: [String: Int]
    /// Notes for the user, such as what was read differently or left out and why.
    public var notes: [String]

    /// Creates a plan.
    ///
    /// - Parameters:
    ///   - records: The records to add.
    ///   - alreadyThere: How many are already there, by kind.
    ///   - notes: Notes for the user.
    public init(records: [StoredRecord] = [], alreadyThere: [String: Int] = [:], notes: [String] = []) {
        self.records = records
        self.alreadyThere = alreadyThere
        self.notes = notes
    }

    /// Adds a typed record, encoded as a record book stores it.
    ///
    /// - Throws: `EncodingError` when the record cannot be encoded.
    public mutating func add<Record: PluginRecord>(_ record: Record) throws {
        records.append(try RecordBook<Record>.stored(record))
    }

    /// Adds a typed record that replaces the stored one of the same id, one of ``updates``.
    ///
    /// - Throws: `EncodingError` when the record cannot be encoded.
    public mutating func update<Record: PluginRecord>(_ record: Record) throws {
        updates.append(try RecordBook<Record>.stored(record))
    }
}

/// Why an importer could not read what it was given; the message names the file, the line or
/// field, and the fix.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do, for a person.
    public var message: String

    /// Creates an error.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
