import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import Synchronization

/// Reminders the user declares in the configuration file, or adds with `hooray remind` (see
/// `RemindCommands.swift`).
///
/// ```toml
/// [[plugins.reminders.reminder]]
/// title = "Stretch"
/// body = "Stand up and roll your shoulders."
/// at = "15:00"
/// days = "mon-fri"       # or: every = "3d" (optionally start = "2026-01-05"); neither: every day
/// zone = "Europe/Berlin" # optional; the system's zone by default
/// ```
///
/// Each reminder's identity is its `id`, or a slug of its title when it has none, so editing the
/// body keeps the reminder's history while renaming it starts a new one.
public struct RemindersPlugin: CommandPlugin {
    /// The `[plugins.reminders]` section.
    public struct Configuration: Decodable, Sendable, Equatable {
        /// The declared reminders, in file order.
        public var reminder: [Entry]

        public init(reminder: [Entry] = []) {
            self.reminder = reminder
        }

        enum CodingKeys: String, CodingKey {
            case reminder
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            reminder = try container.decodeIfPresent([Entry].self, forKey: .reminder) ?? []
        }
    }

    /// One `[[plugins.reminders.reminder]]` entry.
    public struct Entry: Decodable, Sendable, Equatable {
        /// A stable key; a slug of the title by default.
        public var id: String?
        /// The notification's title.
        public var title: String
        /// The notification's body.
        public var body: String
        /// The time of day.
        public var at: TimeOfDay
        /// The chosen weekdays, when given.
        public var days: WeekdayList?
        /// Every N days, when given.
        public var every: EveryDays?
        /// The first day of an `every` schedule.
        public var start: LocalDate?
        /// The IANA time zone, when given.
        public var zone: ZoneName?
        /// The notification's urgency.
        public var urgency: Notice.Urgency

        enum CodingKeys: String, CodingKey {
            case id, title, body, at, days, every, start, zone, urgency
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Collect every problem of the entry, so one `config check` run shows them all.
            // Each field in a `do` of its own rather than through `ConfigErrorCollector.attempt`: a file
            // of 100,000 reminders decodes nine fields each, and a closure per field showed.
            var errors = ConfigErrorCollector()
            (id, title, body, at) = (nil, "", "", TimeOfDay(hour: 0)!)
            (days, every, start, zone, urgency) = (nil, nil, nil, nil, .normal)
            do { id = try container.decodeIfPresent(String.self, forKey: .id) } catch { errors.record(error) }
            do { title = try container.decode(String.self, forKey: .title) } catch { errors.record(error) }
            do { body = try container.decodeIfPresent(String.self, forKey: .body) ?? "" } catch { errors.record(error) }
            do { at = try container.decode(TimeOfDay.self, forKey: .at) } catch { errors.record(error) }
            do { days = try container.decodeIfPresent(WeekdayList.self, forKey: .days) } catch { errors.record(error) }
            do { every = try container.decodeIfPresent(EveryDays.self, forKey: .every) } catch { errors.record(error) }
            do { start = try container.decodeIfPresent(LocalDate.self, forKey: .start) } catch { errors.record(error) }
            do { zone = try container.decodeIfPresent(ZoneName.self, forKey: .zone) } catch { errors.record(error) }
            do {
                urgency = try container.decodeIfPresent(Notice.Urgency.self, forKey: .urgency) ?? .normal
            } catch {
                errors.record(error)
            }
            if container.contains(.title), RemindersPlugin.isBlank(title) {
                errors.record(
                    DecodingError.dataCorruptedError(
                        forKey: .title, in: container, debugDescription: "a reminder needs a title that is not empty"))
            }
            if let id, let reserved = Snooze.reservedPrefix(of: id) {
                errors.record(
                    DecodingError.dataCorruptedError(
                        forKey: .id, in: container,
                        debugDescription:
                            "a reminder id cannot start with \"\(reserved)\", which Hooray keeps for snoozed notices; pick another id"
                    ))
            }
            if days != nil && every != nil {
                errors.record(
                    DecodingError.dataCorruptedError(
                        forKey: .every, in: container,
                        debugDescription: "use either `days` or `every` in one reminder, not both"))
            }
            if start != nil && every == nil {
                errors.record(
                    DecodingError.dataCorruptedError(
                        forKey: .start, in: container,
                        debugDescription:
                            "`start` only applies to `every = \"Nd\"` reminders; add `every` or remove `start`"
                    ))
            }
            try errors.throwIfAny()
        }
    }

    /// Whether a title is empty or only spaces; one that starts with a printable ASCII character is
    /// answered without Foundation.
    static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, (0x21...0x7E).contains(first) { return false }
        return text.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// A weekday list such as `mon-fri` in configuration.
    public struct WeekdayList: Decodable, Sendable, Equatable {
        /// The days.
        public var days: Set<Weekday>

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                days = try Self.days(in: text)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
            }
        }

        /// The days of a list such as `mon-fri`.
        static func days(in text: String) throws(WeekdayListError) -> Set<Weekday> {
            if let known = read.withLock({ $0[text] }) { return known }
            let days = try Weekday.parseSet(text)
            read.withLock { read in if read.count < 1024 { read[text] = days } }
            return days
        }

        /// Lists already read, by their text: a file of many reminders writes a few lists many times.
        private static let read = Mutex<[String: Set<Weekday>]>([:])
    }

    /// An interval such as `3d` in configuration.
    public struct EveryDays: Decodable, Sendable, Equatable {
        /// The number of days.
        public var days: Int

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let interval = DayInterval(parsing: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription:
                        "\"\(text)\" is not an interval of days; write it like \"3d\", \"1 day\" or \"2w\"")
            }
            days = interval.days
        }
    }

    /// An IANA time zone name in configuration.
    public struct ZoneName: Decodable, Sendable, Equatable {
        /// The zone.
        public var zone: TimeZone

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let zone = Self.zone(named: text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\"\(text)\" is not a known time zone; use an IANA name such as "
                        + "\"Europe/Berlin\" (`timedatectl list-timezones` lists them)")
            }
            self.zone = zone
        }

        /// The zone with an IANA name, or `nil` when there is none.
        static func zone(named text: String) -> TimeZone? {
            if let zone = known.withLock({ $0[text] }) { return zone }
            guard let zone = TimeZone(identifier: text) else { return nil }
            known.withLock { known in if known.count < 1024 { known[text] = zone } }
            return zone
        }

        /// Zones already found, by name: a file of many reminders names a few zones many times.
        private static let known = Mutex<[String: TimeZone]>([:])
    }

    /// Creates the plugin.
    public init() {}

    public var name: String { "reminders" }
    /// A file of nothing but `[[plugins.reminders.reminder]]` tables, known to be unchanged, is left
    /// unread at a start: what it declared is kept as stored (see ``activate(context:configuration:)``).
    public var deferrableList: String? { "reminder" }
    /// What `hooray import` checks imported records against.
    public var recordTypes: [any PluginRecord.Type] { [CommandLineReminder.self] }

    /// The first day a reminder with `every` and no `start` was seen (`anchor.<id>`) is written
    /// by the plugin itself; an import gives back the one the user had.
    public func isBookkeeping(valueKey key: String) -> Bool { key.hasPrefix(Self.anchorPrefix) }

    /// The prefix of the keys that remember each `every` reminder's first day.
    static let anchorPrefix = "anchor."

    public var summary: String {
        "Reminders with a title, a time and which days: in hooray.toml, or added with `hooray remind`."
    }

    /// The button every reminder carries: the engine's standard "Snooze 1 h", which brings the
    /// reminder back once an hour later. A snoozed reminder survives reloads as long as it is still
    /// configured.
    public static let snooze = NoticeAction.snooze()

    /// How long a one-off added with `hooray remind` is kept after it was shown: long enough that a
    /// snooze of it still comes back, short enough that done ones do not pile up.
    static let keepShownOneOffs: TimeInterval = 7 * 86400

    public func activate(context: PluginContext, configuration: Configuration) async throws {
        let book = context.records(of: CommandLineReminder.self)
        let records = try await commandLineReminders(context: context)
        var configuration = configuration
        var configurationDigest = context.configurationSource?.digest
        if let source = context.configurationSource, source.listContinuesUnread {
            // Part of the list was left unread, its file unchanged: when nothing the reminders are
            // made of changed either, they are kept as stored, none declared again.
            let key = try await declarationKey(configuration: source.digest, records: records, context: context)
            if let count = try await context.reminders.keepDeclared(key: key) {
                context.logger.debug("the reminders' files and records are unchanged: kept as stored")
                try await settle(declared: records, count: count, context: context)
                return
            }
            (configuration, configurationDigest) = try source.readAll(of: self)
        }
        // The ids of the reminders added with `hooray remind` first: they are the user's too, and
        // their ids (r1, r2, …) are kept; a reminder in the file whose slug is the same gets a suffix.
        var used: [String: Int] = [:]
        for record in records { used[record.id] = 1 }
        let entries = configuration.reminder
        used.reserveCapacity(used.count + entries.count)
        var (fromFile, anchored) = Self.declare(entries, used: &used, defaultZone: context.timeZone)
        // Their first day is kept in the plugin's storage: read (or written) now, and built each time.
        for (place, index) in anchored {
            let entry = entries[index]
            let schedule = try await schedule(for: entry, id: fromFile[place].id, context: context)
            fromFile[place] = DeclaredReminder(Self.reminder(for: entry, id: fromFile[place].id, schedule: schedule))
        }
        // `hooray remind` may add, change or remove one while this runs (it writes the record, then
        // plans it). The records are read again right before everything is replaced, and once more
        // after: what changed in between is planned (or cancelled) again, so nothing it did is undone.
        let added = try await book.all()
        // They go first, moved in front of the file's in place rather than the file's copied after them.
        var reminders = fromFile
        fromFile = []
        reminders.insert(contentsOf: added.map { DeclaredReminder($0.reminder(defaultZone: context.timeZone)) }, at: 0)
        // Remembered with a key of everything they are made of, so that the next start can keep them.
        var key: String?
        if let configurationDigest {
            key = try await declarationKey(configuration: configurationDigest, records: added, context: context)
        }
        try await context.reminders.replaceAll(declaring: reminders, key: key)
        try await settle(declared: added, count: reminders.count, context: context)
    }

    /// Declares the entries' reminders, in their order, each built only when the entry, or the zone
    /// it falls back on, changed since it was stored. An entry with `every` and no `start` needs its
    /// first day from the plugin's storage: it is declared with its id only, and its place in the
    /// result and its index in `entries` are returned to be declared again once that is read.
    ///
    /// Not `async`, and the entries read in place: copies of 100,000 entries showed at a first start.
    static func declare(
        _ entries: [Entry], used: inout [String: Int], defaultZone: TimeZone
    ) -> (declared: [DeclaredReminder], anchored: [(place: Int, index: Int)]) {
        var declared: [DeclaredReminder] = []
        declared.reserveCapacity(entries.count)
        var anchored: [(place: Int, index: Int)] = []
        let fallback = (zone: defaultZone, identifier: defaultZone.identifier)
        // Read through a buffer: an entry holds a time zone, whose layout Foundation keeps to itself,
        // and the array's subscript hands out a copy of the whole entry for each field read.
        entries.withUnsafeBufferPointer { list in
            for index in list.indices {
                let id = Self.id(of: list[index], used: &used)
                if list[index].every != nil && list[index].start == nil {
                    anchored.append((declared.count, index))
                    declared.append(DeclaredReminder(id: id, sourceDigest: "") { throw UnreadFirstDay(id: id) })
                    continue
                }
                // The closure holds the list, not a copy of the entry.
                let zone = list[index].zone.map { (zone: $0.zone, identifier: $0.zone.identifier) } ?? fallback
                let digest = Self.digest(of: list[index], id: id, zone: zone.identifier)
                declared.append(
                    DeclaredReminder(id: id, sourceDigest: digest) {
                        let entry = entries[index]
                        return Self.reminder(for: entry, id: id, schedule: Self.schedule(for: entry, zone: zone.zone))
                    })
            }
        }
        return (declared, anchored)
    }

    /// The stand-in ``declare(_:used:defaultZone:)`` leaves for a reminder whose first day is still to
    /// be read: it is always replaced before the reminders are declared.
    struct UnreadFirstDay: Error, CustomStringConvertible {
        var id: String
        var description: String { "internal error: the reminder \(id) was declared before its first day was read" }
    }

    /// What follows declaring the reminders, or keeping them: the reminders `hooray remind` added,
    /// changed or removed meanwhile are planned (or cancelled), and passed one-offs noted.
    ///
    /// - Parameters:
    ///   - declared: The records as they were declared.
    ///   - count: How many reminders were declared.
    func settle(declared: [CommandLineReminder], count: Int, context: PluginContext) async throws {
        let current = try await context.records(of: CommandLineReminder.self).all()
        let before = Dictionary(declared.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for record in current where before[record.id] != record {
            _ = try await context.reminders.schedule(record.reminder(defaultZone: context.timeZone))
        }
        let currentIDs = Set(current.map(\.id))
        for record in declared where !currentIDs.contains(record.id) {
            try await context.reminders.cancel(id: record.id)
        }
        try await notePassedOneOffs(current, context: context)
        if count == 0 {
            context.logger.info(
                "no reminders configured yet; add a [[plugins.reminders.reminder]] to \(context.settingsFile)")
        } else {
            context.logger.info("\(count) reminder(s) scheduled")
        }
    }

    /// A digest of everything the declared reminders are made of: the configuration files, the
    /// zone the reminders fall back on, every `hooray remind` record and the first day kept for each
    /// `every` reminder without a `start`. Change what ``activate(context:configuration:)`` makes of
    /// them, and the first line, so that a newer plugin declares again.
    func declarationKey(
        configuration: String, records: [CommandLineReminder], context: PluginContext
    ) async throws -> String {
        var digest = ContentDigest()
        digest.add("reminders declaration 1")
        digest.add(configuration)
        digest.add(context.timeZone.identifier)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        Data(try encoder.encode(records)).withUnsafeBytes { digest.add(bytes: $0) }
        for value in try await context.storage.values(withPrefix: Self.anchorPrefix).sorted(by: { $0.key < $1.key }) {
            digest.add(value.key)
            value.data.withUnsafeBytes { digest.add(bytes: $0) }
        }
        return digest.value
    }

    /// A reminder's id in the file: its `id`, or a slug of its title, with `-2`, `-3`, … after it when
    /// one before has it too (`used` counts them).
    @inline(__always)  // Read in place from the list (see `declare`), not copied for the call.
    static func id(of entry: Entry, used: inout [String: Int]) -> String {
        let base = entry.id ?? Self.slug(entry.title)
        // One lookup counts it.
        func counted(_ count: inout Int) -> Int {
            count += 1
            return count
        }
        let count = counted(&used[base, default: 0])
        return count == 1 ? base : "\(base)-\(count)"
    }

    /// The reminders added with `hooray remind` to keep scheduled; one-offs that came due more than a
    /// week ago are removed.
    func commandLineReminders(context: PluginContext) async throws -> [CommandLineReminder] {
        let book = context.records(of: CommandLineReminder.self)
        var kept: [CommandLineReminder] = []
        for record in try await book.all() {
            if let shown = record.shownAt, record.isOneOff, context.now.timeIntervalSince(shown) > Self.keepShownOneOffs
            {
                try await book.delete(record.id)
            } else {
                kept.append(record)
            }
        }
        return kept
    }

    /// Marks one-offs whose time passed and that will not come as done, as if they came due then: one
    /// brought back by `hooray import` after its time, or one whose showing could not be noted. They
    /// leave `hooray remind list` and are removed a week later, as shown ones are.
    func notePassedOneOffs(_ records: [CommandLineReminder], context: PluginContext) async throws {
        let waiting = records.filter { $0.isOneOff && $0.shownAt == nil }
        guard !waiting.isEmpty else { return }
        var nextDue: [String: Date?] = [:]
        for item in try await context.reminders.list() { nextDue[item.reminder.id] = item.nextDue }
        let book = context.records(of: CommandLineReminder.self)
        for record in waiting where record.isDone(nextDue: nextDue[record.id] ?? nil, now: context.now) {
            try await book.update(record.id) { stored in
                if stored.shownAt == nil { stored.shownAt = stored.once }
            }
        }
    }

    /// Shows the reminder's notice; a one-off added with `hooray remind` is then done: it leaves
    /// `hooray remind list` and never comes again.
    public func reminderDue(_ due: DueReminder, context: PluginContext) async throws -> Notice? {
        if case .once = due.reminder.schedule, !due.isSnoozed {
            let now = context.now
            try await context.records(of: CommandLineReminder.self).update(due.reminder.id) { record in
                if record.shownAt == nil { record.shownAt = now }
            }
        }
        return due.reminder.notice
    }

    /// A one-off added with `hooray remind` that was missed and will not be shown is done too: it
    /// leaves `hooray remind list`, as a shown one does.
    public func reminderSkipped(_ skipped: SkippedReminder, context: PluginContext) async throws {
        guard case .once = skipped.reminder.schedule, Snooze.snoozedID(of: skipped.reminder.id) == nil else { return }
        try await context.records(of: CommandLineReminder.self).update(skipped.reminder.id) { record in
            if record.shownAt == nil { record.shownAt = skipped.dueAt }
        }
    }

    /// The notice of a reminder in the file, and its schedule.
    static func reminder(for entry: Entry, id: String, schedule: Schedule) -> Reminder {
        let notice = Notice(
            title: entry.title, body: entry.body, urgency: entry.urgency, actions: [Self.snooze], category: "reminder")
        return Reminder(id: id, schedule: schedule, notice: notice)
    }

    /// Everything a reminder in the file is built from: its entry, its id and its zone's identifier.
    /// Change what ``reminder(for:id:schedule:)`` makes of them, and this first line, so that stored
    /// reminders are built again.
    @inline(__always)  // Read in place from the list (see `declare`), not copied for the call.
    static func digest(of entry: Entry, id: String, zone: String) -> String {
        var digest = ContentDigest()
        digest.add("reminders 3")
        digest.add(id)
        digest.add(entry.title)
        digest.add(entry.body)
        digest.add(entry.at.secondsSinceMidnight)
        // The days as a set of bits, -1 for none given: the same days in any order are the same.
        digest.add(entry.days.map { $0.days.reduce(0) { $0 | 1 << $1.rawValue } } ?? -1)
        digest.add(entry.every?.days ?? -1)
        digest.add(entry.start.map { $0.year * 10_000 + $0.month * 100 + $0.day } ?? -1)
        digest.add(zone)
        digest.add(entry.urgency.rawValue)
        return digest.value
    }

    /// The schedule of an entry with no `every`, or with `every` and `start`: it needs nothing stored.
    static func schedule(for entry: Entry, zone: TimeZone) -> Schedule {
        if let days = entry.days {
            return .weekly(on: days.days, at: entry.at, zone: zone)
        }
        if let every = entry.every, let start = entry.start {
            return .everyNDays(interval: every.days, anchor: start, at: entry.at, zone: zone)
        }
        return .daily(at: entry.at, zone: zone)
    }

    func schedule(for entry: Entry, id: String, context: PluginContext) async throws -> Schedule {
        let zone = entry.zone?.zone ?? context.timeZone
        if let days = entry.days {
            return .weekly(on: days.days, at: entry.at, zone: zone)
        }
        if let every = entry.every {
            // Without an explicit start, the first day the reminder was seen is its anchor; it is
            // remembered so that a restart does not shift the rhythm.
            let anchor: LocalDate
            if let start = entry.start {
                anchor = start
            } else if let saved = try await context.storage.value(forKey: Self.anchorPrefix + id, as: LocalDate.self) {
                anchor = saved
            } else {
                anchor = LocalDate(instant: context.now, in: zone)
                try await context.storage.set(anchor, forKey: Self.anchorPrefix + id)
            }
            return .everyNDays(interval: every.days, anchor: anchor, at: entry.at, zone: zone)
        }
        return .daily(at: entry.at, zone: zone)
    }

    /// A reminder id made from a title: lowercase letters and digits joined by dashes.
    static func slug(_ title: String) -> String {
        var result = ""
        var dash = false
        for scalar in title.lowercased().unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII {
                if dash && !result.isEmpty { result.append("-") }
                result.unicodeScalars.append(scalar)
                dash = false
            } else {
                dash = true
            }
        }
        return result.isEmpty ? "reminder" : result
    }
}
