import Foundation
import HoorayCalendar
import HoorayKit

let newYork = TimeZone(identifier: "America/New_York")!
let berlin = TimeZone(identifier: "Europe/Berlin")!
let sydney = TimeZone(identifier: "Australia/Sydney")!
let lordHowe = TimeZone(identifier: "Australia/Lord_Howe")!
let apia = TimeZone(identifier: "Pacific/Apia")!

/// An instant written as a UTC ISO 8601 string, such as `2026-03-08T07:30:00Z`.
func utc(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
}

/// A date written as `YYYY-MM-DD`.
func day(_ text: String) -> LocalDate {
    LocalDate(parsing: text)!
}

/// A time of day written as `HH:MM`.
func time(_ text: String) -> TimeOfDay {
    TimeOfDay(parsing: text)!
}

/// An instant as a UTC ISO 8601 string, so that failures read like the expectations.
func iso(_ date: Date?) -> String? {
    date?.formatted(.iso8601)
}
