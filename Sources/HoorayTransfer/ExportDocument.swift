import Foundation
import HoorayCalendar
import HoorayKit
import HoorayStorage

/// The file `hooray export` writes and `hooray import` reads: the user's data in a documented,
/// versioned form (docs/export.md).
///
/// The same data always gives the same bytes: no time of export, plugins, records and keys in a
/// fixed order, JSON with sorted keys. So `export → delete-my-data → import → export` gives the
/// file it started with.
public enum ExportDocument {
    /// The value of `format` that marks a Hooray export.
    public static let format = "hooray-export"
    /// The version this Hooray writes, and the newest it reads.
    ///
    /// Version 1 wrote each record as its plugin stores it, instants as seconds since 1970;
    /// version 2 writes the records of installed plugins in their public form
    /// (``PluginRecord/exportValue()``), instants as ISO 8601.
    public static let version = 2

    /// What the export knows of the installed plugins: the types of their records, which own the
    /// public form of their kinds.
    public struct Forms: Sendable {
        /// The record types, by plugin name.
        public var recordTypes: [String: [any PluginRecord.Type]]

        /// Creates the forms of these plugins' records; none by default, when every record is
        /// written as it is stored.
        public init(recordTypes: [String: [any PluginRecord.Type]] = [:]) {
            self.recordTypes = recordTypes
        }

        /// Whether two records of a plugin hold the same in their public form: the same date as the
        /// export writes it, and the same ``PluginRecord/exportValue()``. So a record imported from
        /// an export of the same data is the same as the stored one, though the export leaves out
        /// this computer's bookkeeping (such as a moment's AI retries) and rounds instants to the
        /// microsecond. `false` for a kind without a type, or a record its type cannot read.
        public func samePublicForm(plugin: String, _ one: StoredRecord, _ other: StoredRecord) -> Bool {
            guard one.kind == other.kind, one.id == other.id, ExportDocument.same(one.date, other.date),
                let type = type(plugin: plugin, kind: one.kind),
                let first = try? type.exportValue(ofStored: one.data),
                let second = try? type.exportValue(ofStored: other.data)
            else { return false }
            return first == second
        }

        /// The type of a plugin's records of a kind, when the plugin is installed and has it.
        func type(plugin: String, kind: String) -> (any PluginRecord.Type)? {
            recordTypes[plugin]?.first { $0.recordKind == kind }
        }
    }

    // MARK: JSON

    /// The data as the JSON export: pretty-printed, keys sorted, ending with a newline.
    ///
    /// - Parameters:
    ///   - data: The data.
    ///   - forms: The installed plugins' record types: their records are written in their public
    ///     form; any other record (a plugin in another language, or one not installed) as it is
    ///     stored.
    public static func json(_ data: UserData, forms: Forms = Forms()) -> String {
        var plugins: [String: JSONValue] = [:]
        for (name, content) in data.plugins {
            let records: [JSONValue] = content.records.map { record in
                var fields: [String: JSONValue] = ["kind": .string(record.kind), "id": .string(record.id)]
                switch record.date {
                case .day(let day): fields["day"] = .string(day.description)
                case .instant(let instant): fields["at"] = .string(ExportForm.instant(instant))
                }
                if let type = forms.type(plugin: name, kind: record.kind) {
                    if let value = try? type.exportValue(ofStored: record.data) {
                        fields["value"] = value
                    } else {
                        // A record its plugin cannot read (written by hand, or by a version that
                        // wrote it otherwise) is kept as it is stored, marked so.
                        embed(record.data, into: &fields, as: "stored")
                    }
                } else {
                    embed(record.data, into: &fields, as: "value")
                }
                return .object(fields)
            }
            let values: [JSONValue] = content.values.map { value in
                var fields: [String: JSONValue] = ["key": .string(value.key)]
                embed(value.data, into: &fields, as: "value")
                return .object(fields)
            }
            plugins[name] = .object(["records": .array(records), "values": .array(values)])
        }
        let document: JSONValue = .object([
            "format": .string(format), "version": .number(Double(version)), "plugins": .object(plugins),
        ])
        return document.text(pretty: true) + "\n"
    }

    /// Stored bytes under `key` when they are JSON; as `text` when they are other UTF-8 text (such
    /// as a day's claim), as `base64` otherwise.
    static func embed(_ data: Data, into fields: inout [String: JSONValue], as key: String) {
        if let value = try? JSONDecoder().decode(JSONValue.self, from: data) {
            fields[key] = value
        } else if let text = String(data: data, encoding: .utf8), !text.contains("\u{0}") {
            fields["text"] = .string(text)
        } else {
            fields["base64"] = .string(data.base64EncodedString())
        }
    }

    /// Reads a JSON export of any version up to ``version``.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - file: The file's name, for messages.
    ///   - forms: The installed plugins' record types, which read the public forms of version 2 and
    ///     refuse a kind their plugin does not keep.
    ///   - check: Why a record's stored value cannot be one of its plugin's records, given the
    ///     plugin's name, the record's kind and the value; `nil` to accept it (the default, for
    ///     every record).
    /// - Returns: The data it holds.
    /// - Throws: ``ImportFileError`` naming the line or field that is wrong and the fix.
    public static func read(
        _ bytes: Data, file: String, forms: Forms = Forms(),
        check: (_ plugin: String, _ kind: String, _ value: Data) -> String? = { _, _, _ in nil }
    ) throws(ImportFileError) -> UserData {
        let text = String(decoding: bytes, as: UTF8.self)
        guard !text.allSatisfy(\.isWhitespace) else { throw ImportFileError(file: file, problem: .empty) }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: bytes)
        } catch {
            let first = text.first { !$0.isWhitespace }
            if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { throw ImportFileError(file: file, problem: .zip) }
            if csvHeaders.contains(where: { text.hasPrefix($0) }) {
                throw ImportFileError(file: file, problem: .hoorayCSV)
            }
            if first != "{" && first != "[" { throw ImportFileError(file: file, problem: .notJSON) }
            if let line = JSONScan.endsInside(text) {
                throw ImportFileError(file: file, problem: .truncated(line: line))
            }
            throw ImportFileError(file: file, problem: .malformed(detail: JSONScan.describe(error)))
        }
        guard case .object(let top) = document, top["format"]?.stringValue == format else {
            throw ImportFileError(file: file, problem: .otherProgram)
        }
        guard case .number(let number)? = top["version"], number.rounded() == number, number >= 1 else {
            throw ImportFileError(file: file, problem: .field("version", "is not a whole number of 1 or more"))
        }
        guard number <= Double(version) else {
            throw ImportFileError(file: file, problem: .newerVersion(Int(exactly: number) ?? Int.max))
        }
        let fileVersion = Int(number)
        guard case .object(let plugins)? = top["plugins"] else {
            throw ImportFileError(file: file, problem: .field("plugins", "is missing or not an object of plugins"))
        }
        var data = UserData()
        for (name, content) in plugins.sorted(by: { $0.key < $1.key }) {
            let path = "plugins.\(name)"
            guard isPluginName(name) else {
                throw ImportFileError(
                    file: file,
                    problem: .field(path, "is not a plugin's name (lowercase letters, digits and dashes)"))
            }
            guard case .object(let fields) = content else {
                throw ImportFileError(file: file, problem: .field(path, "is not an object with records and values"))
            }
            let records = try list(fields["records"], at: path + ".records", file: file)
            let values = try list(fields["values"], at: path + ".values", file: file)
            var plugin = UserData.Plugin()
            var seen: [String: Int] = [:]
            for (index, entry) in records.enumerated() {
                let at = "\(path).records[\(index)]"
                let line = JSONScan.line(of: [.key("plugins"), .key(name), .key("records"), .index(index)], in: text)
                let record =
                    fileVersion == 1
                    ? try self.record(entry, at: at, file: file)
                    : try self.record(entry, plugin: name, at: at, line: line, forms: forms, file: file)
                try knownKind(record.kind, plugin: name, at: at, line: line, forms: forms, file: file)
                let key = record.kind + "\u{0}" + record.id
                if let earlier = seen[key] {
                    throw ImportFileError(
                        file: file,
                        problem: .duplicate(
                            at, earlier: "\(path).records[\(earlier)]", what: "\(record.kind) \(record.id)",
                            line: line))
                }
                if let problem = check(name, record.kind, record.data) {
                    let field = entry["base64"] != nil ? "base64" : entry["stored"] != nil ? "stored" : "value"
                    throw ImportFileError(
                        file: file, problem: .record("\(at).\(field)", kind: record.kind, problem: problem, line: line))
                }
                seen[key] = index
                plugin.records.append(record)
            }
            seen = [:]
            for (index, entry) in values.enumerated() {
                let at = "\(path).values[\(index)]"
                guard case .object(let fields) = entry, let key = fields["key"]?.stringValue else {
                    throw ImportFileError(file: file, problem: .field(at, "has no \"key\" string"))
                }
                if let earlier = seen[key] {
                    throw ImportFileError(
                        file: file,
                        problem: .duplicate(
                            at, earlier: "\(path).values[\(earlier)]", what: "key \(key)",
                            line: JSONScan.line(
                                of: [.key("plugins"), .key(name), .key("values"), .index(index)], in: text)))
                }
                seen[key] = index
                plugin.values.append(
                    StoredValue(key: key, data: try Self.bytes(of: fields, under: "value", at: at, file: file)))
            }
            data.plugins[name] = UserData.Plugin(records: plugin.records, values: plugin.values)
        }
        return data
    }

    /// How the files of Hooray's CSV exports begin: version 1 and 2 (a single table), and the
    /// tables of version 3 (one file per kind) that `hooray import` would otherwise take for
    /// another program's.
    static let csvHeaders = [
        "version,plugin,table,", "plugin,table,kind,", "date,time,text,mood,note,praise,", "name,why,schedule,start,",
        "habit,date,status,", "plugin,kind,id,date,time,value", "plugin,key,value", "id,date,time,",
    ]

    /// Whether a name can be a plugin's: lowercase letters, digits and dashes.
    static func isPluginName(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    static func list(_ value: JSONValue?, at path: String, file: String) throws(ImportFileError) -> [JSONValue] {
        switch value {
        case nil: return []
        case .array(let items)?: return items
        default: throw ImportFileError(file: file, problem: .field(path, "is not an array"))
        }
    }

    /// The kind and id of a record, or the field that lacks them.
    static func kindAndID(_ entry: JSONValue, at path: String, file: String) throws(ImportFileError)
        -> (kind: String, id: String, fields: [String: JSONValue])
    {
        guard case .object(let fields) = entry else {
            throw ImportFileError(file: file, problem: .field(path, "is not an object"))
        }
        guard let kind = fields["kind"]?.stringValue, !kind.isEmpty else {
            throw ImportFileError(file: file, problem: .field(path + ".kind", "is missing or not a string"))
        }
        guard let id = fields["id"]?.stringValue, !id.isEmpty else {
            throw ImportFileError(file: file, problem: .field(path + ".id", "is missing or not a string"))
        }
        return (kind, id, fields)
    }

    /// A record of a version-1 file: its value as the plugin stored it, its instant in seconds
    /// since 1970.
    static func record(_ entry: JSONValue, at path: String, file: String) throws(ImportFileError) -> StoredRecord {
        let (kind, id, fields) = try kindAndID(entry, at: path, file: file)
        let date: RecordDate
        switch (fields["day"], fields["instant"]) {
        case (.string(let text)?, nil):
            guard let day = LocalDate(parsing: text) else {
                throw ImportFileError(file: file, problem: .field(path + ".day", "is not a date written YYYY-MM-DD"))
            }
            date = .day(day)
        case (nil, .number(let seconds)?):
            date = .instant(Date(timeIntervalSince1970: seconds))
        default:
            throw ImportFileError(
                file: file,
                problem: .field(path, "needs either \"day\" (YYYY-MM-DD) or \"instant\" (seconds since 1970)"))
        }
        return StoredRecord(
            kind: kind, id: id, date: date, data: try Self.bytes(of: fields, under: "value", at: path, file: file))
    }

    /// A record of a version-2 file: an installed plugin's in its public form, read by its type;
    /// any other as it is stored.
    static func record(
        _ entry: JSONValue, plugin: String, at path: String, line: Int?, forms: Forms, file: String
    ) throws(ImportFileError) -> StoredRecord {
        let (kind, id, fields) = try kindAndID(entry, at: path, file: file)
        let date: RecordDate
        switch (fields["day"], fields["at"]) {
        case (.string(let text)?, nil):
            guard let day = LocalDate(parsing: text) else {
                throw ImportFileError(
                    file: file,
                    problem: .value(path + ".day", "\"\(text)\" is not a date written YYYY-MM-DD", line: line))
            }
            date = .day(day)
        case (nil, .string(let text)?):
            guard let instant = ExportForm.instant(parsing: text) else {
                throw ImportFileError(
                    file: file,
                    problem: .value(
                        path + ".at",
                        "\"\(text)\" is not an instant written as ISO 8601, such as "
                            + "\"2026-11-21T16:40:00Z\"", line: line))
            }
            date = .instant(instant)
        default:
            throw ImportFileError(
                file: file,
                problem: .field(path, "needs either \"day\" (YYYY-MM-DD) or \"at\" (an ISO 8601 instant)"))
        }
        try knownKind(kind, plugin: plugin, at: path, line: line, forms: forms, file: file)
        guard let type = forms.type(plugin: plugin, kind: kind) else {
            return StoredRecord(
                kind: kind, id: id, date: date, data: try Self.bytes(of: fields, under: "value", at: path, file: file))
        }
        if fields["stored"] != nil || fields["value"] == nil {
            return StoredRecord(
                kind: kind, id: id, date: date, data: try Self.bytes(of: fields, under: "stored", at: path, file: file))
        }
        let record: StoredRecord
        do {
            record = try type.storedRecord(fromExport: fields["value"] ?? .null, id: id)
        } catch {
            let field = error.field.isEmpty ? "" : "." + error.field
            throw ImportFileError(file: file, problem: .value("\(path).value\(field)", error.problem, line: line))
        }
        guard Self.same(record.date, date) else {
            let (key, written) =
                switch date {
                case .day(let day): ("day", day.description)
                case .instant(let instant): ("at", ExportForm.instant(instant))
                }
            let its =
                switch record.date {
                case .day(let day): day.description
                case .instant(let instant): ExportForm.instant(instant)
                }
            throw ImportFileError(
                file: file,
                problem: .value(
                    "\(path).\(key)",
                    "\(written) is not the \(type.recordName)'s own date in its value, \(its); "
                        + "make the two the same", line: line))
        }
        return record
    }

    /// Refuses a kind of record that an installed plugin with record types does not keep: it
    /// would be stored where nothing reads it, and no later export could be imported.
    static func knownKind(
        _ kind: String, plugin: String, at path: String, line: Int?, forms: Forms, file: String
    ) throws(ImportFileError) {
        let known = forms.recordTypes[plugin] ?? []
        guard !known.isEmpty, !known.contains(where: { $0.recordKind == kind }) else { return }
        throw ImportFileError(
            file: file,
            problem: .value(
                path + ".kind",
                "\"\(kind)\" is not a kind of record the \(plugin) plugin keeps; it keeps "
                    + known.map { "\"\($0.recordKind)\"" }.joined(separator: ", "), line: line))
    }

    /// Whether two dates are the same as the export writes them.
    static func same(_ one: RecordDate, _ other: RecordDate) -> Bool {
        switch (one, other) {
        case (.day(let a), .day(let b)): a == b
        case (.instant(let a), .instant(let b)): ExportForm.instant(a) == ExportForm.instant(b)
        default: false
        }
    }

    /// The stored bytes of a record or value: JSON under `key`, or `text`, or `base64`.
    static func bytes(of fields: [String: JSONValue], under key: String, at path: String, file: String)
        throws(ImportFileError) -> Data
    {
        switch (fields[key], fields["text"], fields["base64"]) {
        case (let value?, nil, nil):
            return Data(value.text().utf8)
        case (nil, .string(let text)?, nil):
            return Data(text.utf8)
        case (nil, nil, .string(let text)?):
            guard let data = Data(base64Encoded: text) else {
                throw ImportFileError(file: file, problem: .field(path + ".base64", "is not base64"))
            }
            return data
        default:
            throw ImportFileError(
                file: file, problem: .field(path, "needs one of \"\(key)\", \"text\" or \"base64\""))
        }
    }
}
