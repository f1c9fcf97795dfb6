import HoorayCalendar

/// Reading configuration values that need a check beyond their type, such as a duration's range.
extension KeyedDecodingContainer {
    /// Decodes an optional duration such as `"30s"` or `"2h"` and checks that it lies in a range.
    ///
    /// A value out of range is reported at the value's own position, with the range in the message,
    /// for example `90m is out of range; use a duration from 1s to 1h`. A bare number counts seconds,
    /// as for every duration; when that is out of range but the same number of minutes, hours or days
    /// is not, the message says so and shows it (`keep_delivered = 90`: `90 is read as seconds
    /// (1m30s) and is out of range; use a duration from 1d to 36500d with its unit, such as "90d"`).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - defaultValue: The value when the key is absent.
    ///   - range: The allowed range, in seconds.
    /// - Returns: The duration, or `defaultValue`.
    /// - Throws: `DecodingError` when the value is not a duration or is out of range.
    public func decodeDuration(_ key: Key, default defaultValue: ConfigDuration, within range: ClosedRange<Int>)
        throws -> ConfigDuration
    {
        guard let value = try decodeIfPresent(ConfigDuration.self, forKey: key) else { return defaultValue }
        guard range.contains(value.seconds) else {
            let low = ConfigDuration(seconds: range.lowerBound)
            let high = ConfigDuration(seconds: range.upperBound)
            if let number = try? decode(Int.self, forKey: key),
                let unit = [("d", 86400), ("h", 3600), ("m", 60)].first(where: { _, size in
                    let (seconds, overflow) = number.multipliedReportingOverflow(by: size)
                    return !overflow && range.contains(seconds)
                })
            {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self,
                    debugDescription:
                        "\(number) is read as seconds (\(value)) and is out of range; use a duration from \(low) to "
                        + "\(high) with its unit, such as \"\(number)\(unit.0)\"")
            }
            // The description shows a negative duration itself: negating `Int.min` here would trap.
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(value) is out of range; use a duration from \(low) to \(high)")
        }
        return value
    }
}

extension KeyedDecodingContainer {
    /// Decodes the time of an optional reminder: `"HH:MM"`, or `"off"` (or `false`) for none.
    ///
    /// ```toml
    /// night_prep = "21:00"
    /// morning_focus = "off"
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - defaultValue: The value when the key is absent.
    /// - Returns: The time, `nil` for off, or `defaultValue`.
    /// - Throws: `DecodingError` naming the key, the accepted forms and an example when the value is
    ///   neither.
    public func decodeTimeOrOff(_ key: Key, default defaultValue: TimeOfDay?) throws -> TimeOfDay? {
        guard contains(key) else { return defaultValue }
        if let text = try? decode(String.self, forKey: key), text.lowercased() == "off" { return nil }
        if let on = try? decode(Bool.self, forKey: key), !on { return nil }
        guard let time = try? decode(TimeOfDay.self, forKey: key) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription:
                    "\(key.stringValue) must be a time as HH:MM, such as \"\(defaultValue ?? TimeOfDay(hour: 9)!)\", or \"off\" for no reminder"
            )
        }
        return time
    }
}
