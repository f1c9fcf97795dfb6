import Foundation
import HoorayCalendar

extension PluginRecord {
    /// The record's `Codable` form with instants as ISO 8601 in UTC, without a member `id` that
    /// holds the ``recordID``.
    public func exportValue() throws -> JSONValue {
        let value = try ExportForm.encode(self)
        guard case .object(var members) = value, let id = members["id"]?.stringValue,
            id.lowercased() == recordID.lowercased()
        else { return value }
        members["id"] = nil
        return .object(members)
    }

    /// Decodes the record as it is `Codable`, instants as ISO 8601, with `id` put back when the
    /// value has none.
    public init(exportValue value: JSONValue, id: String) throws {
        guard case .object(var members) = value else {
            throw ExportFormError(field: "", problem: "it is not an object of fields")
        }
        if members["id"] == nil { members["id"] = .string(id) }
        self = try ExportForm.decode(Self.self, from: .object(members))
    }

    /// One row in the table named after the kind (``recordNamePlural``, such as `swaps`): the
    /// columns `id`, `date` and `time` (the record's date in `timeZone`; `time` is empty for a
    /// record filed under a day), then each member of ``exportValue()`` by name. A list of texts
    /// is joined with `; `; any other list or object is written as JSON.
    public func csvRows(timeZone: TimeZone) throws -> [CSVRow] {
        let (day, time) = CSVRow.dateAndTime(of: recordDate, in: timeZone)
        var cells: [(String, String)] = [("id", recordID), ("date", day), ("time", time)]
        if case .object(let members) = try exportValue() {
            for (key, value) in members.sorted(by: { $0.key < $1.key }) { cells.append((key, CSVRow.cell(value))) }
        }
        return [CSVRow(table: Self.recordNamePlural, cells: cells)]
    }

    /// A stored record in its public form, as ``exportValue()`` writes it.
    ///
    /// - Parameter data: The record's stored value, as ``RecordBook/encode(_:)`` writes it.
    /// - Throws: `DecodingError` when the stored value does not read as this record.
    package static func exportValue(ofStored data: Data) throws -> JSONValue {
        try RecordBook<Self>.decode(data).exportValue()
    }

    /// A stored record's rows in the CSV export, as ``csvRows(timeZone:)`` writes them.
    ///
    /// - Parameters:
    ///   - data: The record's stored value.
    ///   - timeZone: The time zone of the dates and times.
    /// - Throws: `DecodingError` when the stored value does not read as this record.
    package static func csvRows(ofStored data: Data, timeZone: TimeZone) throws -> [CSVRow] {
        try RecordBook<Self>.decode(data).csvRows(timeZone: timeZone)
    }

    /// The record to store for a public form: what ``init(exportValue:id:)`` reads, stored as the
    /// record book stores it.
    ///
    /// - Parameters:
    ///   - value: The public form.
    ///   - id: The id written beside it.
    /// - Returns: The record as stored, with its kind, id and date.
    /// - Throws: ``ExportFormError`` naming the field that is wrong, or saying that the value's
    ///   fields give another id.
    package static func storedRecord(fromExport value: JSONValue, id: String) throws(ExportFormError)
        -> StoredRecord
    {
        let record: Self
        do {
            record = try Self(exportValue: value, id: id)
        } catch let error as ExportFormError {
            throw error
        } catch let error as DecodingError {
            throw ExportFormError(error)
        } catch {
            throw ExportFormError(field: "", problem: "\(error)")
        }
        guard record.recordID == id else {
            throw ExportFormError(field: "", problem: "its fields give it the id \"\(record.recordID)\", not \"\(id)\"")
        }
        do {
            return StoredRecord(
                kind: recordKind, id: id, date: record.recordDate, data: try RecordBook<Self>.encode(record))
        } catch {
            throw ExportFormError(field: "", problem: "it cannot be stored: \(error)")
        }
    }
}

/// One row of the CSV export (`hooray export --format csv`): the table (file) it goes in, and its
/// cells by column.
///
/// A table's columns are those of its first row; later rows fill them by name, and a column only a
/// later row has is added at the end.
public struct CSVRow: Sendable, Hashable {
    /// The table, such as `moments`: the file `moments.csv`.
    public var table: String
    /// The columns, in order.
    public var columns: [String]
    /// The cells, one per column.
    public var values: [String]

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - table: The table, such as `moments`.
    ///   - cells: Each column's name and the cell's text, in the order of the columns.
    public init(table: String, cells: [(String, String)]) {
        self.table = table
        columns = cells.map(\.0)
        values = cells.map(\.1)
    }

    /// A record's date as the CSV export writes it: the local day (`YYYY-MM-DD`) and, for an
    /// instant, its local time (`HH:MM`) in `timeZone`; the time is empty for a day.
    ///
    /// - Parameters:
    ///   - date: The date.
    ///   - timeZone: The time zone of the day and time.
    public static func dateAndTime(of date: RecordDate, in timeZone: TimeZone) -> (day: String, time: String) {
        switch date {
        case .day(let day): return (day.description, "")
        case .instant(let instant): return dateAndTime(of: instant, in: timeZone)
        }
    }

    /// An instant's local day (`YYYY-MM-DD`) and time (`HH:MM`) in `timeZone`.
    ///
    /// - Parameters:
    ///   - instant: The instant.
    ///   - timeZone: The time zone of the day and time.
    public static func dateAndTime(of instant: Date, in timeZone: TimeZone) -> (day: String, time: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        let day =
            LocalDate(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)?.description ?? ""
        let hour = parts.hour ?? 0
        let minute = parts.minute ?? 0
        return (day, (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)")
    }

    /// A JSON value as a cell: text as it is, `true`/`false`, a number, empty for `null`, a list
    /// of texts joined with `; `, anything else as compact JSON.
    ///
    /// - Parameter value: The value.
    public static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let text): return text
        case .bool, .number: return value.text()
        case .array(let items):
            let texts = items.compactMap(\.stringValue)
            return texts.count == items.count ? texts.joined(separator: "; ") : value.text()
        case .object: return value.text()
        }
    }
}
