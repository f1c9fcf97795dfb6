import Foundation

/// Hours of the day when notices that are not urgent wait, such as `22:00-07:30`.
///
/// Written as one window or several separated by commas (`"22:00-07:30, 12:30-13:30"`); a window
/// whose end is earlier than its start runs past midnight. Windows may not overlap, and a window
/// may not be empty. `"none"` or `""` means no quiet hours.
package struct QuietHours: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One window, from `start` up to (not including) `end`, in local time.
    package struct Window: Sendable, Hashable, CustomStringConvertible {
        /// When it begins.
        package let start: TimeOfDay
        /// When it ends; earlier than `start` when it runs past midnight.
        package let end: TimeOfDay

        /// Whether it runs past midnight.
        package var crossesMidnight: Bool { end < start }

        /// `22:00-07:30`.
        package var description: String { "\(start)-\(end)" }

        /// The minutes of the day it covers, as ranges within 0..<1440.
        var minuteRanges: [Range<Int>] {
            let from = start.secondsSinceMidnight / 60
            let to = end.secondsSinceMidnight / 60
            return crossesMidnight ? [from..<1440, 0..<to].filter { !$0.isEmpty } : [from..<to]
        }
    }

    /// The windows, in the order written.
    package let windows: [Window]

    /// No quiet hours.
    package static let none = QuietHours(checked: [])

    private init(checked windows: [Window]) {
        self.windows = windows
    }

    /// Whether there are no quiet hours at all.
    package var isEmpty: Bool { windows.isEmpty }

    /// The windows as written in the configuration, or `none`.
    package var description: String {
        windows.isEmpty ? "none" : windows.map(\.description).joined(separator: ", ")
    }

    /// Parses quiet hours.
    ///
    /// - Parameter text: `HH:MM-HH:MM`, several separated by commas, or `none`.
    /// - Throws: ``QuietHoursError`` naming what is wrong and how to write it.
    package init(parsing text: String) throws(QuietHoursError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.lowercased() == "none" {
            self.init(checked: [])
            return
        }
        var windows: [Window] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let piece = part.trimmingCharacters(in: .whitespaces)
            let ends = piece.split(separator: "-", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard ends.count == 2, let start = TimeOfDay(parsing: ends[0]), let end = TimeOfDay(parsing: ends[1])
            else {
                throw .malformed(piece)
            }
            guard start != end else { throw .empty(piece) }
            windows.append(Window(start: start, end: end))
        }
        for (index, window) in windows.enumerated() {
            for other in windows[(index + 1)...] {
                let overlaps = window.minuteRanges.contains { mine in
                    other.minuteRanges.contains { mine.overlaps($0) }
                }
                if overlaps { throw .overlapping(window.description, other.description) }
            }
        }
        self.init(checked: windows)
    }

    /// When the quiet hours around `instant` end, or `nil` when `instant` is not inside them.
    ///
    /// Windows that touch (`21:00-22:00, 22:00-07:00`) count as one.
    ///
    /// - Parameters:
    ///   - instant: The instant.
    ///   - zone: The user's time zone.
    package func end(containing instant: Date, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var current = instant
        var found: Date?
        // Each window can extend the quiet time once.
        for _ in 0..<max(windows.count, 1) {
            guard let next = endOfWindow(containing: current, calendar: calendar) else { break }
            found = next
            current = next
        }
        return found
    }

    private func endOfWindow(containing instant: Date, calendar: Calendar) -> Date? {
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        for window in windows {
            let from = window.start.secondsSinceMidnight / 60
            let to = window.end.secondsSinceMidnight / 60
            let inside = window.crossesMidnight ? (minute >= from || minute < to) : (minute >= from && minute < to)
            guard inside else { continue }
            // The window ends the next time its end comes round: today's, tomorrow's, or the second
            // of a time that happens twice when the clocks go back.
            let end = DateComponents(hour: window.end.hour, minute: window.end.minute, second: 0)
            for policy in [Calendar.RepeatedTimePolicy.first, .last] {
                if let next = calendar.nextDate(
                    after: instant, matching: end, matchingPolicy: .nextTime, repeatedTimePolicy: policy,
                    direction: .forward), next > instant
                {
                    return next
                }
            }
            return nil
        }
        return nil
    }

    /// Decodes quiet hours from their text.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the quiet hours as their text.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why quiet hours could not be read.
package enum QuietHoursError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A window is not `HH:MM-HH:MM`.
    case malformed(String)
    /// A window starts and ends at the same time.
    case empty(String)
    /// Two windows share some minutes.
    case overlapping(String, String)

    /// What is wrong, and how to write it.
    package var description: String {
        switch self {
        case .malformed(let text):
            "\"\(text)\" is not a quiet-hours window; write it as HH:MM-HH:MM, e.g. \"22:00-07:30\" "
                + "(several separated by commas, or \"none\")"
        case .empty(let text):
            "\"\(text)\" starts and ends at the same time; give a window such as \"22:00-07:30\", or \"none\" for no quiet hours"
        case .overlapping(let first, let second):
            "the quiet-hours windows \(first) and \(second) overlap; join them into one window or move one"
        }
    }
}
