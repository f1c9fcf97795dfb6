/// The words `hooray` uses itself, which no plugin may take (`CommandTree.hostWords`); here, so that
/// the `hooray` front door knows them without the engine.
public enum HostWords {
    /// The words.
    public static let all = [
        "next", "inbox", "act", "status", "plugins", "plugin", "config", "reload", "delete-my-data", "identity", "ai",
        "help", "version", "missed", "bar", "menu", "pause", "sync", "doctor", "export", "import", "coach", "review",
        // The name under which hoorayd posts its own notices (digests, "While you were away").
        "hooray",
    ]
}
