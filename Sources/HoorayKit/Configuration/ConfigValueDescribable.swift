import HoorayCalendar

/// A type that says what its values look like in a configuration file.
///
/// When a value in `hooray.toml` has the wrong TOML type, Hooray's configuration loader says what
/// it expected. For a type that decodes from a plain string, "expected a string" is less helpful
/// than `expected a string such as "15:00"`; conform your configuration value types to this
/// protocol to get the better message. Other decoders, such as `JSONDecoder`, ignore it.
///
/// ```swift
/// extension Volume: ConfigValueDescribable {
///     static var configValueDescription: String { "a number from 0 to 100" }
/// }
/// ```
package protocol ConfigValueDescribable {
    /// A short phrase naming the expected form, with an example, to follow "expected":
    /// `a string such as "15:00"`.
    static var configValueDescription: String { get }
}

extension TimeOfDay: ConfigValueDescribable {
    /// `a string such as "15:00"`.
    package static var configValueDescription: String { #"a string such as "15:00""# }
}

extension LocalDate: ConfigValueDescribable {
    /// `a date such as "2026-01-05"`.
    package static var configValueDescription: String { #"a date such as "2026-01-05""# }
}

extension ConfigDuration: ConfigValueDescribable {
    /// `a duration such as "30s", "5m", "2h" or "90d"`.
    package static var configValueDescription: String { #"a duration such as "30s", "5m", "2h" or "90d""# }
}
