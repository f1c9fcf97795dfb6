import Foundation
import HoorayCalendar
import HoorayKit

/// A reminder read straight from its table: a file of 100,000 `[[plugins.reminders.reminder]]`
/// entries is read in one pass over each entry's keys, without `Decoder`'s keyed containers.
///
/// It gives a value only for an entry that `init(from:)` takes without a word, and the same value;
/// anything else (a key it does not know, a value of another type, a time that is not one, `days`
/// with `every`, …) gives `nil`, and the loader decodes the entry through `init(from:)`, which
/// reports it. Change one with the other.
extension RemindersPlugin.Entry: ConfigTableDecodable {
    package init?(readingGood table: some ConfigTableReader) {
        var id: String?
        var title: String?
        var body: String?
        var at: TimeOfDay?
        var days: RemindersPlugin.WeekdayList?
        var every: RemindersPlugin.EveryDays?
        var start: LocalDate?
        var zone: RemindersPlugin.ZoneName?
        var urgency: Notice.Urgency?
        for index in 0..<table.count {
            // Every value of an entry is text.
            guard let text = table.string(at: index) else { return nil }
            let key = table.key(at: index)
            // The keys differ in their first letter: one comparison each.
            switch key.utf8.first {
            case UInt8(ascii: "i"):
                guard key == "id", Snooze.reservedPrefix(of: text) == nil else { return nil }
                id = text
            case UInt8(ascii: "t"):
                guard key == "title", !RemindersPlugin.isBlank(text) else { return nil }
                title = text
            case UInt8(ascii: "b"):
                guard key == "body" else { return nil }
                body = text
            case UInt8(ascii: "a"):
                guard key == "at", let time = TimeOfDay(parsing: text) else { return nil }
                at = time
            case UInt8(ascii: "d"):
                guard key == "days", let list = try? RemindersPlugin.WeekdayList.days(in: text) else { return nil }
                days = RemindersPlugin.WeekdayList(days: list)
            case UInt8(ascii: "e"):
                guard key == "every", let interval = DayInterval(parsing: text) else { return nil }
                every = RemindersPlugin.EveryDays(days: interval.days)
            case UInt8(ascii: "s"):
                guard key == "start", let date = LocalDate(parsing: text) else { return nil }
                start = date
            case UInt8(ascii: "z"):
                guard key == "zone", let found = RemindersPlugin.ZoneName.zone(named: text) else { return nil }
                zone = RemindersPlugin.ZoneName(zone: found)
            case UInt8(ascii: "u"):
                guard key == "urgency", let level = Notice.Urgency(rawValue: text) else { return nil }
                urgency = level
            default:
                return nil
            }
        }
        // What `init(from:)` refuses of the entry as a whole.
        guard let title, let at, days == nil || every == nil, start == nil || every != nil else { return nil }
        (self.id, self.title, self.body, self.at) = (id, title, body ?? "", at)
        (self.days, self.every, self.start, self.zone, self.urgency) = (days, every, start, zone, urgency ?? .normal)
    }
}

extension RemindersPlugin.WeekdayList {
    init(days: Set<Weekday>) {
        self.days = days
    }
}

extension RemindersPlugin.EveryDays {
    init(days: Int) {
        self.days = days
    }
}

extension RemindersPlugin.ZoneName {
    init(zone: TimeZone) {
        self.zone = zone
    }
}
