import Foundation
import HoorayCalendar

/// A value a plugin keeps in its record book: a moment, a habit, a rejection, a swap.
///
/// Each record has a kind (its table within the plugin's records), an id unique within that kind,
/// and a date — a local day or an instant — that day-range queries use. Records are stored as
/// JSON, dates as seconds since 1970.
///
/// ```swift
/// struct Glass: PluginRecord, Identifiable {
///     static let recordKind = "glass"
///     var id = UUID()
///     var drunkAt: Date
///     var recordDate: RecordDate { .instant(drunkAt) }
/// }
///
/// let glasses = context.records(of: Glass.self)
/// try await glasses.insert(Glass(drunkAt: context.now))
/// let today = try await glasses.records(on: context.today, in: context.timeZone)
/// ```
///
/// A record that is `Identifiable` by a `UUID` gets its ``recordID`` for free: the UUID
/// in lowercase.
public protocol PluginRecord: Codable, Sendable {
    /// The kind of record, such as `moment` or `habit`: its table within the plugin's records.
    ///
    /// Use lowercase letters, digits and dashes; it also names one record in messages
    /// (``recordName``), so pick the word a user would.
    static var recordKind: String { get }

    /// One record in messages to the user, such as `moment`; ``recordKind`` by default.
    static var recordName: String { get }

    /// Several records in messages to the user, such as `moments`; ``recordName`` and an `s` by default.
    static var recordNamePlural: String { get }

    /// The prefix of keys under which the plugin kept these records in its key-value
    /// ``PluginStore`` before it had a record book, such as `moment.`; `nil` (the default) when it
    /// never did.
    ///
    /// When set, the book moves such values into itself, once, before it is first read: existing
    /// users' records survive the switch without a step of the plugin's own. A value that does not
    /// decode as this record stays where it is.
    static var legacyKeyPrefix: String? { get }

    /// The record's id, unique among the plugin's records of this kind.
    ///
    /// Users see ids shortened, so they should be long and random at the start, such as a UUID;
    /// ``RecordBook/find(idPrefix:listedBy:)`` looks a record up by its first characters.
    var recordID: String { get }

    /// The local day or the instant the record is filed under, for
    /// ``RecordBook/records(from:through:in:)``: when a moment happened, the day a habit starts.
    var recordDate: RecordDate { get }

    /// The record in its public form: what `hooray export` writes as its `value` (docs/export.md).
    ///
    /// The default encodes the record as it is `Codable`, instants as ISO 8601 in UTC
    /// (``ExportForm/encode(_:)``), and leaves out a member `id` that holds the ``recordID``:
    /// the export writes the id once, beside the value. Write your own when the stored form holds
    /// what a person cannot read (a bitmap of days, weekdays as numbers) or what only this computer
    /// needs (a retry counter), and then ``init(exportValue:id:)`` to read it back. Leave out what
    /// is worked out from the rest or from the time of the export, such as a streak: the same
    /// record must always give the same value.
    ///
    /// - Returns: The public form, a JSON object.
    /// - Throws: An error when the record cannot be encoded.
    func exportValue() throws -> JSONValue

    /// Reads a record from its public form, as ``exportValue()`` writes it.
    ///
    /// Check what the type alone does not, such as a day listed twice or a number out of range,
    /// and name the field in an ``ExportFormError``. The default decodes the value with
    /// ``ExportForm/decode(_:from:)``, with `id` put back when the value has none.
    ///
    /// - Parameters:
    ///   - value: The public form.
    ///   - id: The record's id, written beside the value.
    /// - Throws: ``ExportFormError`` naming the field that is wrong.
    init(exportValue value: JSONValue, id: String) throws

    /// The rows the record adds to the CSV export (`hooray export --format csv`): one or more, each
    /// in a table of its own choosing, with dates and times in `timeZone`.
    ///
    /// The default is one row in the table ``recordNamePlural``, with the columns `id`, `date` and
    /// `time`, then one column per member of ``exportValue()``.
    ///
    /// - Parameter timeZone: The user's time zone, for dates and times.
    /// - Returns: The rows.
    /// - Throws: An error when the record cannot be encoded.
    func csvRows(timeZone: TimeZone) throws -> [CSVRow]
}

extension PluginRecord {
    /// The kind.
    public static var recordName: String { recordKind }

    /// The name and an `s`.
    public static var recordNamePlural: String { recordName + "s" }

    /// None: the plugin never kept these records in its key-value storage.
    public static var legacyKeyPrefix: String? { nil }

    /// Why stored bytes do not read as this record, in a few words naming the field (such as
    /// `its field "start" is missing`), or `nil` when they do.
    ///
    /// - Parameter data: A record's stored value, as its record book stores it.
    public static func problem(decoding data: Data) -> String? {
        do {
            _ = try RecordBook<Self>.decode(data)
            return nil
        } catch DecodingError.keyNotFound(let key, let context) {
            return "its field \"\(fieldPath(context.codingPath + [key]))\" is missing"
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            return context.codingPath.isEmpty
                ? "it is not an object of fields"
                : "its field \"\(fieldPath(context.codingPath))\" is not of the right type"
        } catch DecodingError.dataCorrupted(let context) {
            return context.codingPath.isEmpty
                ? "it is not JSON"
                : "its field \"\(fieldPath(context.codingPath))\" holds a value that cannot be read"
        } catch {
            return "\(error)"
        }
    }

    /// `schedule.days[2]`, from the coding path of a decoding error.
    private static func fieldPath(_ path: [any CodingKey]) -> String {
        path.reduce(into: "") { text, key in
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
    }
}

extension PluginRecord where Self: Identifiable, ID == UUID {
    /// The UUID in lowercase, as users see it shortened.
    public var recordID: String { id.uuidString.lowercased() }
}

/// Where a record sits on the calendar: a local day, or an instant whose local day depends on the
/// time zone it is seen from.
public enum RecordDate: Sendable, Hashable {
    /// A calendar day, the same in every time zone, such as the first day of a habit.
    case day(LocalDate)
    /// An instant, such as when a moment happened; it falls on the local day of whoever looks.
    case instant(Date)
}

/// A span of local days in a time zone, as records are queried by.
///
/// A record filed under a ``RecordDate/day(_:)`` is in the span when its day is; one filed under
/// an ``RecordDate/instant(_:)`` when the instant falls on one of the days in ``timeZone``.
public struct LocalDayRange: Sendable, Hashable {
    /// The first day.
    public var first: LocalDate
    /// The last day, included.
    public var last: LocalDate
    /// The time zone whose calendar days these are.
    public var timeZone: TimeZone

    /// Creates a span of days.
    ///
    /// - Parameters:
    ///   - first: The first day.
    ///   - last: The last day, included; a span whose last day is before its first is empty.
    ///   - timeZone: The time zone whose calendar days these are.
    public init(from first: LocalDate, through last: LocalDate, in timeZone: TimeZone) {
        self.first = first
        self.last = last
        self.timeZone = timeZone
    }

    /// Whether the span has no day at all.
    public var isEmpty: Bool { last < first }

    /// The instants of the span: from the start of ``first`` up to the start of the day after
    /// ``last``, in ``timeZone``.
    public var instants: Range<Date> {
        let start = Self.start(of: first, in: timeZone)
        return start..<max(start, Self.start(of: last.adding(days: 1), in: timeZone))
    }

    /// Whether a record filed under `date` is in the span.
    public func contains(_ date: RecordDate) -> Bool {
        switch date {
        case .day(let day): first <= day && day <= last
        case .instant(let instant): instants.contains(instant)
        }
    }

    /// The first instant of a local day: midnight, or the first instant after it where a time-zone
    /// change skips midnight.
    static func start(of day: LocalDate, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        // Outside the years a calendar can count (such as year 0), midnight UTC is as good as any.
        return calendar.date(from: components).map { calendar.startOfDay(for: $0) }
            ?? Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86400)
    }
}
