extension TimeOfDay {
    /// Parses `H:MM` or `HH:MM` in 24-hour form, such as `8:30` or `15:00`.
    ///
    /// - Returns: `nil` when the text is not a valid time of day.
    public init?(parsing text: String) {
        if let time = Self.plain(text.utf8) {
            self = time
            return
        }
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// The usual `HH:MM` or `H:MM`, read byte by byte: a file of many reminders has one each.
    private static func plain(_ bytes: String.UTF8View) -> TimeOfDay? {
        var (hour, minute, hourDigits, minuteDigits, seenColon) = (0, 0, 0, 0, false)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9") where seenColon && minuteDigits < 2:
                (minute, minuteDigits) = (minute * 10 + Int(byte &- 48), minuteDigits + 1)
            case UInt8(ascii: "0")...UInt8(ascii: "9") where !seenColon && hourDigits < 2:
                (hour, hourDigits) = (hour * 10 + Int(byte &- 48), hourDigits + 1)
            case UInt8(ascii: ":") where !seenColon:
                seenColon = true
            default:
                return nil
            }
        }
        guard seenColon, (1...2).contains(hourDigits), minuteDigits == 2 else { return nil }
        return TimeOfDay(hour: hour, minute: minute)
    }
}

extension LocalDate {
    /// Parses an ISO 8601 calendar date, `YYYY-MM-DD`.
    ///
    /// - Returns: `nil` when the text is not a valid date.
    public init?(parsing text: String) {
        let parts = text.trimmingWhitespace().split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }
}

extension LocalDate {
    /// Parses a day as a person types it on the command line: `YYYY-MM-DD`, `today` or `yesterday`
    /// (any case, surrounding spaces ignored).
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - today: The current day in the user's time zone.
    /// - Returns: `nil` when the text is none of these; the caller says so in the option's words.
    public init?(parsing text: String, today: LocalDate) {
        switch text.trimmingWhitespace().lowercased() {
        case "today": self = today
        case "yesterday": self = today.adding(days: -1)
        default: self.init(parsing: text)
        }
    }
}

extension Weekday {
    /// Parses one weekday name: `mon`, `monday`, `Mon` (any case).
    public init?(parsing text: String) {
        let name = text.trimmingWhitespace().lowercased()
        guard name.count >= 3 else { return nil }
        guard
            let match = Weekday.allCases.first(where: { day in
                let full = day.fullName
                return name == day.abbreviation || name == full
            })
        else { return nil }
        self = match
    }

    /// The full lowercase English name, e.g. `monday`.
    public var fullName: String {
        switch self {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }

    /// Parses a list of weekdays and ranges: `mon-fri`, `mon,wed,fri`, `sat, sun`, `fri-mon`,
    /// and the words `weekdays`, `weekends` and `daily`.
    ///
    /// A range may wrap around the week: `fri-mon` is Friday through Monday.
    /// - Throws: ``WeekdayListError`` naming the part that could not be read.
    public static func parseSet(_ text: String) throws(WeekdayListError) -> Set<Weekday> {
        let trimmed = text.trimmingWhitespace().lowercased()
        switch trimmed {
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends", "weekend": return [.saturday, .sunday]
        case "daily", "every day", "all": return Set(Weekday.allCases)
        default: break
        }
        var days = Set<Weekday>()
        let items = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        for item in items {
            let part = String(item).trimmingWhitespace()
            if part.isEmpty { throw WeekdayListError(text: text, part: part) }
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            switch ends.count {
            case 1:
                guard let day = Weekday(parsing: part) else { throw WeekdayListError(text: text, part: part) }
                days.insert(day)
            case 2:
                guard let first = Weekday(parsing: String(ends[0])) else {
                    throw WeekdayListError(text: text, part: String(ends[0]).trimmingWhitespace())
                }
                guard let last = Weekday(parsing: String(ends[1])) else {
                    throw WeekdayListError(text: text, part: String(ends[1]).trimmingWhitespace())
                }
                var index = first.rawValue
                while true {
                    days.insert(Weekday(rawValue: index)!)
                    if index == last.rawValue { break }
                    index = index % 7 + 1
                }
            default:
                throw WeekdayListError(text: text, part: part)
            }
        }
        return days
    }
}

/// A list of weekdays that could not be read.
public struct WeekdayListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The whole text that was given.
    public let text: String
    /// The part of it that is not a weekday or a range of weekdays.
    public let part: String

    /// What was wrong and how to write a list of weekdays, for the user.
    public var description: String {
        let what = part.isEmpty ? "an empty item" : "\"\(part)\""
        return "\"\(text)\" is not a list of weekdays (\(what) is not a day); "
            + "use names like mon, tue, ... sun, ranges like mon-fri, or commas: mon,wed,fri"
    }
}

/// A whole number of calendar days, written as `3d`, `3 days` or `1 day`.
public struct DayInterval: Sendable, Hashable {
    /// The number of days, at least 1.
    public let days: Int

    /// Parses `3d`, `3 days`, `1 day`, `2w` (weeks) or `2 weeks`.
    ///
    /// - Returns: `nil` when the text is not such an interval or is not at least one day.
    public init?(parsing text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        let digits = trimmed.prefix(while: \.isASCIIDigit)
        guard !digits.isEmpty, let count = Int(digits), count > 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingWhitespace()
        switch unit {
        case "d", "day", "days": self.days = count
        case "w", "week", "weeks":
            // `9223372036854775807w` is no interval, not a crash.
            let (days, overflow) = count.multipliedReportingOverflow(by: 7)
            guard !overflow else { return nil }
            self.days = days
        default: return nil
        }
    }
}

/// A length of time written in configuration as `30s`, `5m`, `2h`, `1d` or combinations like `1h30m`.
public struct ConfigDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The length in whole seconds.
    public let seconds: Int

    /// Creates a duration of a number of seconds.
    public init(seconds: Int) { self.seconds = seconds }

    /// Parses `30s`, `5m`, `2h`, `1d`, `1h30m`, `90 min` or a bare number of seconds.
    ///
    /// - Returns: `nil` when the text is not such a duration, or when it is too long to count in
    ///   seconds (`9223372036854775807m`).
    public init?(parsing text: String) {
        var rest = Substring(text.trimmingWhitespace().lowercased())
        guard !rest.isEmpty else { return nil }
        if rest.allSatisfy(\.isASCIIDigit) {
            guard let value = Int(rest) else { return nil }
            self.seconds = value
            return
        }
        var total = 0
        while !rest.isEmpty {
            let digits = rest.prefix(while: \.isASCIIDigit)
            guard !digits.isEmpty, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count).drop(while: { $0 == " " })
            let unit = rest.prefix(while: { $0.isLetter })
            rest = rest.dropFirst(unit.count).drop(while: { $0 == " " })
            let multiplier: Int
            switch unit {
            case "s", "sec", "secs", "second", "seconds": multiplier = 1
            case "m", "min", "mins", "minute", "minutes": multiplier = 60
            case "h", "hr", "hrs", "hour", "hours": multiplier = 3600
            case "d", "day", "days": multiplier = 86400
            default: return nil
            }
            let (seconds, overflow) = value.multipliedReportingOverflow(by: multiplier)
            guard !overflow else { return nil }
            let (sum, sumOverflow) = total.addingReportingOverflow(seconds)
            guard !sumOverflow else { return nil }
            total = sum
        }
        self.seconds = total
    }

    /// The duration in the shortest configuration form, such as `1h30m`, `45s` or `-2h`.
    public var description: String {
        if seconds == 0 { return "0s" }
        var parts: [String] = seconds < 0 ? ["-"] : []
        // The magnitude, so that even `Int.min` seconds (a configured number) can be shown.
        var rest = seconds.magnitude
        for (unit, size) in [("d", 86400), ("h", 3600), ("m", 60), ("s", 1)] as [(String, UInt)] where rest >= size {
            parts.append("\(rest / size)\(unit)")
            rest %= size
        }
        return parts.joined()
    }

    /// Orders durations from shorter to longer.
    public static func < (lhs: ConfigDuration, rhs: ConfigDuration) -> Bool { lhs.seconds < rhs.seconds }

    /// Decodes a duration from text such as `"30s"` or `"1h30m"`, or from a whole number of seconds.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the text when it is not a duration.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self.seconds = number
            return
        }
        let text = try container.decode(String.self)
        guard let value = ConfigDuration(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "\"\(text)\" is not a duration; write it like \"30s\", \"5m\", \"2h\", \"90d\" or \"1h30m\"")
        }
        self = value
    }

    /// Encodes the duration in its shortest configuration form, such as `"1h30m"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
    package func trimmingWhitespace() -> String {
        // Text that starts and ends with a printable ASCII character other than a space, as almost
        // every value in a configuration file does, has nothing to trim.
        var view = Substring(self)
        if let first = view.utf8.first, let last = view.utf8.last, (0x21...0x7E).contains(first),
            (0x21...0x7E).contains(last)
        {
            return String(view)
        }
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
