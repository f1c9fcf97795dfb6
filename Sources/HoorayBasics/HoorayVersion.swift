/// Hooray's version, shown by `--version` and `hooray status`.
public enum HoorayVersion {
    /// The current version.
    public static let current = "0.1.0"
}
