import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// Reads Loop Habit Tracker's CSV export (`Habits.csv`, and a folder per habit holding its
/// `Checkmarks.csv`) into habits with the same days done and the same streaks.
///
/// The format is the one of Loop's `HabitsCSVExporter`: `Habits.csv` lists the habits with their
/// position (`001`), name, type and frequency; the folder `001 Name` holds `Checkmarks.csv`,
/// `Date,Value,Notes`, newest first, the value one of `YES_MANUAL` (done), `YES_AUTO` (not done
/// but not expected either, by the habit's frequency: Loop keeps the streak going), `NO`, `SKIP`
/// and `UNKNOWN` — or, for a measurable habit, the amount in thousandths. Older exports write the
/// values as numbers (2, 1, 0, 3, -1). When a habit's folder is missing, its column of the
/// top-level `Checkmarks.csv` is read instead.
///
/// How Loop's data becomes Hooray's:
/// - `YES_MANUAL` days are done. Hooray has daily, weekday and every-N-days rhythms but not
///   Loop's "N times in M days"; such a habit becomes daily here, and its `YES_AUTO` days count
///   as done too, so the streak is the one Loop shows.
/// - `SKIP` days become pauses: they neither count nor break the streak, as in Loop.
/// - A measurable habit's day is done when its amount meets the target (at least, or at most,
///   as the habit says).
/// - The description becomes the "remember why" note.
/// - Each habit's id is made from its name, so importing the same export again adds nothing; a
///   habit of the same name already tracked in Hooray is left as it is, with a note.
struct LoopImporter {
    static let spec = ImporterSpec(
        name: "loop",
        summary: "Loop Habit Tracker's CSV export (its Habits.csv, or the folder holding it): habits and their days")

    let request: ImportRequest

    /// One habit as `Habits.csv` describes it.
    struct LoopHabit {
        var line: Int
        var position: String
        var name: String
        var description: String
        var numerator: Int
        var denominator: Int
        var isNumerical: Bool
        var targetAtMost: Bool
        var target: Double
        var unit: String
        var isArchived: Bool
    }

    func plan(existing: [Habit]) throws -> ImportPlan {
        let (folder, habitsFile) = try locate()
        let table = try CSVTable(file: habitsFile)
        guard let nameColumn = table.column("Name"), table.column("Position") != nil else {
            throw ImportError(
                "\(habitsFile) line 1: there is no Position and Name column, so this is not the Habits.csv of Loop "
                    + "Habit Tracker's export. Export from Loop with Settings › Export as CSV, unzip it, and give the "
                    + "Habits.csv inside.")
        }
        var plan = ImportPlan()
        var seenNames = Set<String>()
        let byName = Dictionary(existing.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        let overview = try? CSVTable(file: folder + "/Checkmarks.csv")
        var withoutData: [String] = []
        for row in table.rows {
            let habit = try loopHabit(row, table: table, nameColumn: nameColumn, file: habitsFile)
            let name = habit.name
            guard seenNames.insert(name.lowercased()).inserted else {
                plan.notes.append("Habits.csv line \(habit.line) repeats the name “\(name)”; only the first was read.")
                continue
            }
            if habit.isNumerical, habit.denominator > 1 {
                let period =
                    habit.denominator == 7 ? "week" : habit.denominator == 30 ? "month" : "\(habit.denominator) days"
                let word = habit.targetAtMost ? "at most" : "at least"
                let unit = habit.unit.isEmpty ? "" : " \(habit.unit)"
                plan.notes.append(
                    "“\(name)” was left out: Loop measures it per \(period) (\(word) \(Self.amount(habit.target))\(unit) a "
                        + "\(period)), and Hooray's habits count each day on its own. `hooray habit add` starts it here."
                )
                continue
            }
            guard let entries = try self.entries(of: habit, folder: folder, overview: overview) else {
                withoutData.append(name)
                continue
            }
            var made = try makeHabit(habit, entries: entries, plan: &plan)
            if let mine = byName[name.lowercased()] {
                if mine.id == made.id {
                    try merge(made, into: mine, plan: &plan)
                } else {
                    plan.notes.append(
                        "You already track a habit named “\(mine.name)”, so Loop's was left out; rename yours with "
                            + "`hooray habit rename` and import again to bring Loop's days in as well.")
                }
                continue
            }
            if habit.isArchived {
                let today = LocalDate(instant: request.now, in: request.timeZone)
                made.pauses.removeAll { $0.from >= today }
                if let last = made.pauses.last, last.through.map({ $0 >= today }) ?? true {
                    made.pauses[made.pauses.count - 1].through = today.adding(days: -1)
                }
                made.pauses.append(HabitPause(from: today))
                plan.notes.append(
                    "“\(name)” is archived in Loop, so it comes in paused, with its days; "
                        + "`hooray habit resume \"\(name)\"` takes it up again.")
            }
            try plan.add(made)
        }
        if !withoutData.isEmpty {
            let names = withoutData.map { "“\($0)”" }.joined(separator: ", ")
            plan.notes.append(
                "\(names) \(withoutData.count == 1 ? "has" : "have") no days in this export (Loop writes them only for the "
                    + "habits chosen when exporting), so \(withoutData.count == 1 ? "it was" : "they were") left out. "
                    + "Export all habits from Loop to bring \(withoutData.count == 1 ? "it" : "them") in as well.")
        }
        return plan
    }

    /// Brings the days Loop has and the stored habit has not yet (done, or skipped as a pause) into
    /// it: an updated export adds its new days. Nothing of the stored habit is taken away.
    func merge(_ loop: Habit, into mine: Habit, plan: inout ImportPlan) throws {
        var merged = mine
        var added = 0
        for day in loop.completions where !mine.completions.contains(day) {
            _ = merged.completions.insert(day)
            added += 1
        }
        let newPauses = loop.pauses.filter { pause in
            !mine.pauses.contains { $0.contains(pause.from) } && !mine.completions.contains(pause.from)
        }
        for pause in newPauses {
            added += pause.from.days(until: pause.through ?? pause.from) + 1
        }
        merged.pauses = (mine.pauses + newPauses).sorted { $0.from < $1.from }
        merged.start = min(mine.start, loop.start)
        guard added > 0 else {
            plan.alreadyThere[Habit.recordKind, default: 0] += 1
            return
        }
        try plan.update(merged)
        plan.notes.append(
            "“\(mine.name)” is already here; \(added) \(added == 1 ? "day" : "days") from Loop "
                + (request.apply ? "added." : "to add."))
    }

    /// The folder of the export and its `Habits.csv`, from the path the user gave.
    func locate() throws -> (folder: String, habits: String) {
        let path = request.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ImportError(
                "there is no file or folder \(path); give the Habits.csv of Loop's export, or its folder.")
        }
        if isFolder.boolValue {
            let habits = path + "/Habits.csv"
            guard FileManager.default.fileExists(atPath: habits) else {
                throw ImportError(
                    "the folder \(path) has no Habits.csv; give the folder Loop's CSV export was unzipped into.")
            }
            return (path, habits)
        }
        if path.lowercased().hasSuffix(".zip") {
            throw ImportError(
                "\(path) is Loop's zipped export; unzip it first (`unzip \"\(path)\" -d loop-export`) and give "
                    + "the folder, or the Habits.csv inside.")
        }
        return ((path as NSString).deletingLastPathComponent, path)
    }

    func loopHabit(_ row: CSVTable.Row, table: CSVTable, nameColumn: Int, file: String) throws -> LoopHabit {
        func field(_ name: String) -> String { table.column(name).map { row.field($0) } ?? "" }
        let name = row.field(nameColumn).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, !name.contains(where: \.isNewline), name.count <= HabitRules.maxNameLength else {
            throw ImportError(
                "\(file) line \(row.line): the Name “\(name)” is not a name Hooray can keep (one line, 1 to "
                    + "\(HabitRules.maxNameLength) characters); rename the habit in Loop and export again.")
        }
        // Exports since Loop 2 say FrequencyNumerator/Denominator; earlier ones NumRepetitions/Interval.
        let numerator = Int(field("FrequencyNumerator")) ?? Int(field("NumRepetitions")) ?? 1
        let denominator = Int(field("FrequencyDenominator")) ?? Int(field("Interval")) ?? 1
        let isNumerical = field("Type") == "NUMERICAL"
        let target = Double(field("Target Value"))
        if isNumerical, target == nil {
            throw ImportError(
                "\(file) line \(row.line): the measurable habit “\(name)” has no Target Value; give it a target in "
                    + "Loop and export again.")
        }
        return LoopHabit(
            line: row.line, position: field("Position"), name: name, description: field("Description"),
            numerator: max(numerator, 1), denominator: max(denominator, 1), isNumerical: isNumerical,
            targetAtMost: field("Target Type") == "AT_MOST", target: target ?? 0, unit: field("Unit"),
            isArchived: field("Archived?").lowercased() == "true")
    }

    /// A day's entry: Loop's value, as a number.
    struct Entry {
        var day: LocalDate
        var value: Int
    }

    /// The habit's entries, from its folder, else from its column of the top-level Checkmarks.csv;
    /// `nil` when the export has neither (Loop writes them only for the habits chosen).
    ///
    /// A habit's own `Checkmarks.csv` has a `Date,Value,Notes` header since Loop 2.3.1; earlier
    /// ones have no header, only `2015-01-25,2` rows, and are empty for a habit without entries.
    func entries(of habit: LoopHabit, folder: String, overview: CSVTable?) throws -> [Entry]? {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        if let own = folders.sorted().first(where: { $0 == habit.position || $0.hasPrefix(habit.position + " ") }),
            FileManager.default.fileExists(atPath: "\(folder)/\(own)/Checkmarks.csv")
        {
            let file = "\(folder)/\(own)/Checkmarks.csv"
            if let bytes = FileManager.default.contents(atPath: file),
                String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
            {
                return []
            }
            let table = try CSVTable(file: file)
            if let first = table.header.first, LocalDate(parsing: first) != nil {
                let rows = [CSVTable.Row(line: 1, fields: table.header)] + table.rows
                return try rows.map { try entry($0, date: 0, value: 1, file: file) }
            }
            guard let date = table.column("Date"), let value = table.column("Value") else {
                throw ImportError(
                    "\(file) line 1: there is no Date and Value column, nor a date in the first field; this is not "
                        + "one of Loop's Checkmarks.csv files.")
            }
            return try table.rows.map { try entry($0, date: date, value: value, file: file) }
        }
        guard let overview, let date = overview.column("Date"), let column = overview.column(habit.name) else {
            return nil
        }
        return try overview.rows.map {
            try entry($0, date: date, value: column, file: folder + "/Checkmarks.csv")
        }
    }

    func entry(_ row: CSVTable.Row, date: Int, value: Int, file: String) throws -> Entry {
        let dayText = row.field(date)
        guard let day = LocalDate(parsing: dayText) else {
            throw ImportError("\(file) line \(row.line): “\(dayText)” is not a date written YYYY-MM-DD.")
        }
        let text = row.field(value)
        let named = ["YES_MANUAL": 2, "YES_AUTO": 1, "NO": 0, "SKIP": 3, "UNKNOWN": -1]
        guard let number = named[text] ?? Int(text) else {
            throw ImportError(
                "\(file) line \(row.line): “\(text)” is not one of Loop's values (YES_MANUAL, YES_AUTO, NO, SKIP, "
                    + "UNKNOWN, or a number).")
        }
        return Entry(day: day, value: number)
    }

    func makeHabit(_ loop: LoopHabit, entries: [Entry], plan: inout ImportPlan) throws -> Habit {
        var done: [LocalDate] = []
        var skipped: [LocalDate] = []
        let everyDay = loop.numerator >= loop.denominator
        for entry in entries {
            if loop.isNumerical {
                guard entry.value >= 0 else { continue }
                let amount = Double(entry.value) / 1000
                if loop.targetAtMost ? amount <= loop.target : amount >= loop.target { done.append(entry.day) }
            } else {
                switch entry.value {
                case 2: done.append(entry.day)
                case 1 where !everyDay: done.append(entry.day)
                case 3: skipped.append(entry.day)
                default: break
                }
            }
        }
        if !everyDay, !loop.isNumerical {
            plan.notes.append(
                "“\(loop.name)” is \(loop.numerator) in \(loop.denominator) days in Loop. Hooray has no such rhythm, "
                    + "so here it is a daily habit, and the days Loop counted for you are marked done: the streak is "
                    + "the one Loop shows.")
        }
        if loop.isNumerical {
            let word = loop.targetAtMost ? "at most" : "at least"
            plan.notes.append(
                "“\(loop.name)” is measured in Loop; the days with \(word) \(Self.amount(loop.target)) are marked done."
            )
        }
        let known = entries.map(\.day)
        let start = known.min() ?? LocalDate(instant: request.now, in: request.timeZone)
        let why = loop.description.trimmingCharacters(in: .whitespacesAndNewlines)
        return Habit(
            id: Self.id(forName: loop.name), name: loop.name, why: why.isEmpty ? nil : why, schedule: .daily,
            start: start, remindAt: nil, createdAt: request.now, completions: DaySet(done), resets: [],
            pauses: Self.pauses(skipped), celebrated: [])
    }

    static func amount(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(value)
    }

    /// Skipped days as pauses, one per run of consecutive days.
    static func pauses(_ days: [LocalDate]) -> [HabitPause] {
        var pauses: [HabitPause] = []
        for day in days.sorted() {
            if let last = pauses.last, let through = last.through, through.adding(days: 1) == day {
                pauses[pauses.count - 1].through = day
            } else {
                pauses.append(HabitPause(from: day, through: day))
            }
        }
        return pauses
    }

    /// The same id for the same name in every run (FNV-1a of the lowercased name, twice seeded), so
    /// that a second import of one export finds its habits already there.
    static func id(forName name: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash: UInt64 = seed
            for byte in ("loop-habit:" + name.lowercased()).utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            return hash
        }
        var bytes =
            withUnsafeBytes(of: fnv(0xcbf2_9ce4_8422_2325).bigEndian, Array.init)
            + withUnsafeBytes(of: fnv(0x8422_2325_cbf2_9ce4).bigEndian, Array.init)
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: a custom, name-based UUID
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

/// A CSV file (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks), with the
/// line each row starts on.
struct CSVTable {
    /// A row of fields.
    struct Row {
        var line: Int
        var fields: [String]

        /// The field in a column, or an empty string when the row is shorter.
        func field(_ index: Int) -> String { index < fields.count ? fields[index] : "" }
    }

    var header: [String]
    var rows: [Row]

    init(file: String) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ImportError("cannot read \(file); check that it exists and is readable.")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ImportError("\(file) is not UTF-8 text; give the CSV files of Loop's export as they came.")
        }
        var rows = Self.parse(text)
        guard !rows.isEmpty else { throw ImportError("\(file) is empty; give the CSV files of Loop's export.") }
        header = rows.removeFirst().fields.map { $0.trimmingCharacters(in: .whitespaces) }
        self.rows = rows.filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
    }

    func column(_ name: String) -> Int? { header.firstIndex(of: name) }

    static func parse(_ text: String) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1
        var rowLine = 1
        var characters = Array(text.unicodeScalars)[...]
        if characters.first == "\u{FEFF}" { characters = characters.dropFirst() }
        var index = characters.startIndex
        while index < characters.endIndex {
            let character = characters[index]
            index += 1
            if character == "\n" { line += 1 }
            if quoted {
                if character == "\"" {
                    if index < characters.endIndex, characters[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(character)
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case ",":
                fields.append(field)
                field = ""
            case "\r": break
            case "\n":
                fields.append(field)
                rows.append(Row(line: rowLine, fields: fields))
                (fields, field, rowLine) = ([], "", line)
            default: field.unicodeScalars.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields))
        }
        return rows
    }
}

/// The habits plugin's importers: Loop Habit Tracker's CSV export.
extension HabitsPlugin {
    public var importers: [ImporterSpec] { [LoopImporter.spec] }

    public func planImport(_ request: ImportRequest, records: any RecordStore) async throws -> ImportPlan {
        guard request.importer == LoopImporter.spec.name else {
            throw ImportError("the habits plugin has no importer \"\(request.importer)\"; it reads \"loop\"")
        }
        let existing = try await RecordBook<Habit>(store: records).all()
        return try LoopImporter(request: request).plan(existing: existing)
    }
}
