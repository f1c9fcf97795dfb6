import Foundation
import HoorayKit
import HoorayStorage

// The CSV export: one table per kind of record.
extension ExportDocument {
    /// One file of the CSV export.
    public struct CSVFile: Sendable, Hashable {
        /// Its name, such as `moments.csv`.
        public var name: String
        /// Its text: a header, then a row per line, RFC 4180 with CRLF line ends.
        public var text: String
    }

    /// The data as the CSV export: one table per kind of record, in files named after it
    /// (`moments.csv`, `habits.csv`, `habit-days.csv`, …), as each record's type writes its rows
    /// (``PluginRecord/csvRows(timeZone:)``); records of plugins without such types in
    /// `other-records.csv`, and the stored values in `values.csv`.
    ///
    /// - Parameters:
    ///   - data: The data.
    ///   - forms: The installed plugins' record types.
    ///   - timeZone: The time zone of the dates and times.
    /// - Returns: The files, by name.
    public static func csv(_ data: UserData, forms: Forms = Forms(), timeZone: TimeZone) -> [CSVFile] {
        var tables: [String: (columns: [String], rows: [[String: String]])] = [:]
        var order: [String] = []
        func add(_ row: CSVRow) {
            let name = fileName(row.table)
            if tables[name] == nil {
                tables[name] = ([], [])
                order.append(name)
            }
            for column in row.columns where !tables[name]!.columns.contains(column) {
                tables[name]!.columns.append(column)
            }
            tables[name]!.rows.append(Dictionary(zip(row.columns, row.values)) { first, _ in first })
        }
        for (name, content) in data.plugins.sorted(by: { $0.key < $1.key }) {
            let records = content.records.map { record in
                (record, CSVRow.dateAndTime(of: record.date, in: timeZone))
            }.sorted { ($0.1.day, $0.1.time, $0.0.kind, $0.0.id) < ($1.1.day, $1.1.time, $1.0.kind, $1.0.id) }
            for (record, (day, time)) in records {
                if let type = forms.type(plugin: name, kind: record.kind),
                    let rows = try? type.csvRows(ofStored: record.data, timeZone: timeZone)
                {
                    rows.forEach(add)
                    continue
                }
                let value = (try? JSONDecoder().decode(JSONValue.self, from: record.data)).map { $0.text() }
                add(
                    CSVRow(
                        table: "other-records",
                        cells: [
                            ("plugin", name), ("kind", record.kind), ("id", record.id), ("date", day), ("time", time),
                            ("value", value ?? String(decoding: record.data, as: UTF8.self)),
                        ]))
            }
            for value in content.values {
                let text = (try? JSONDecoder().decode(JSONValue.self, from: value.data)).map { $0.text() }
                add(
                    CSVRow(
                        table: "values",
                        cells: [
                            ("plugin", name), ("key", value.key),
                            ("value", text ?? String(decoding: value.data, as: UTF8.self)),
                        ]))
            }
        }
        return order.sorted().compactMap { name in
            guard let table = tables[name] else { return nil }
            let lines = [table.columns] + table.rows.map { row in table.columns.map { row[$0] ?? "" } }
            return CSVFile(
                name: name + ".csv",
                text: lines.map { $0.map(quoted).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n")
        }
    }

    /// A table's name as a file name: lowercase letters, digits and dashes.
    static func fileName(_ table: String) -> String {
        let name = String(
            table.lowercased().unicodeScalars.map { scalar -> Character in
                ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) ? Character(scalar) : "-"
            })
        return name.isEmpty ? "records" : name
    }

    /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). A field that
    /// a spreadsheet would take for a formula — starting with `=`, `+`, `-`, `@`, a tab or a
    /// carriage return — is written after a single quote `'`, so that it shows as text and runs
    /// nothing (OWASP's advice on CSV injection): a moment's words or the AI's praise are not to be
    /// trusted that far.
    static func quoted(_ cell: String) -> String {
        let field = cell.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } == true ? "'" + cell : cell
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
