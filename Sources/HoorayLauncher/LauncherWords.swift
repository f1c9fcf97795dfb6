/// What the launchers read and say, in one place: the queries that list, the command that reads the
/// habits, and the hints a menu shows. The menu and hoorayd name no plugin themselves.
extension Launcher {
    /// The query that lists the habits due today.
    public static let checklistQuery = "habits"
    /// The query that tells how today goes.
    public static let todayQuery = nameWord

    /// The command that lists the habits (`hooray habit list --json`), as a control request names it and
    /// as the command line is typed.
    public static let checklistCommand = (plugin: "habits", name: "list", arguments: ["habit", "list", "--json"])

    /// `hooray menu`'s one-line summary.
    public static let menuSummary = "Log a win or tick a habit from rofi, wofi, fuzzel, bemenu or dmenu."
    /// `hooray menu`'s first paragraph of help.
    public static let menuHelp = """
        Type "win" and what you did to log a win, "habit" and a word of its name to mark a habit done \
        today, or pick one of today's habits from the list.
        """
    /// Words that show what a launcher does with them, for a command's help.
    public static let example = "win took a walk"

    /// Whether the words typed ask to log a win and have no words for it yet.
    public static func wantsWinWords(_ typed: String) -> Bool {
        intent(of: typed) == .win("")
    }

    /// What a menu says before anything is typed.
    public static let startHint = "Type “win” and what you did, or pick a habit done today"
    /// What a menu says for "win" without words.
    public static let winHint = "Type what you did after “win”, then Enter"
    /// What a menu says for words that only ask what there is ("hooray", "habits").
    public static let pickHint = "Pick a habit done today, or type “win” and what you did"

    /// What a menu says when nothing fits the words typed (already shortened and made safe).
    public static func nothingMatches(_ typed: String) -> String {
        "Nothing matches “\(typed)”: start with “win” to log a win, or “habit” for today's habits"
    }

    /// What `hooray menu WORDS` and `--dmenu` say on standard error when nothing fits the words typed
    /// (already shortened and made safe).
    public static func nothingMatchesOnTerminal(_ typed: String) -> String {
        "nothing matches “\(typed)”; start with “win” to log a win (hooray menu win took a walk), or “habit” and a word of a habit due today"
    }

    /// Whether the words name what to do, rather than ask what there is: "win" with words, or
    /// "habit" with a word of its name. "habit" alone lists, even when one habit is due.
    public static func namesOne(_ typed: String) -> Bool {
        switch intent(of: typed) {
        case .win(let text): !text.isEmpty
        case .habits(let words): !words.isEmpty
        case .today, .none: false
        }
    }
}
