/// A setting as the configuration files set it, for ``ControlRequest/settings(keys:)``: the files
/// merged as hoorayd reads them.
public struct SettingValue: Codable, Sendable, Equatable {
    /// Its key, such as `celebrations.style`.
    public var key: String
    /// Its value; `nil` when no file sets it, and its built-in default applies.
    public var value: JSONValue?
    /// Its built-in default, when hoorayd knows it: what applies while ``value`` is `nil`.
    public var defaultValue: JSONValue?
    /// The value as TOML, such as `"off"`.
    public var toml: String?
    /// The file that sets it, and the line.
    public var file: String?
    public var line: Int?

    enum CodingKeys: String, CodingKey {
        case key, value, toml, file, line
        case defaultValue = "default"
    }

    /// Creates a setting.
    public init(
        key: String, value: JSONValue?, defaultValue: JSONValue? = nil, toml: String?, file: String?, line: Int?
    ) {
        self.key = key
        self.value = value
        self.defaultValue = defaultValue
        self.toml = toml
        self.file = file
        self.line = line
    }
}

/// A problem of the configuration files: what, where (when the file has it as it is), and the fix.
public struct SettingProblem: Codable, Sendable, Equatable {
    /// What is wrong.
    public var message: String
    /// How to fix it.
    public var hint: String?
    /// The key it is about, such as `quiet_hours.start`.
    public var key: String?
    /// The file, line and column; `nil` for a change refused before it was written.
    public var file: String?
    public var line: Int?
    public var column: Int?

    /// Creates a problem.
    public init(
        message: String, hint: String? = nil, key: String? = nil, file: String? = nil, line: Int? = nil,
        column: Int? = nil
    ) {
        self.message = message
        self.hint = hint
        self.key = key
        self.file = file
        self.line = line
        self.column = column
    }
}
