/// A word as a shell reads it, for commands Hooray shows the user to copy.
public enum ShellWord {
    /// `word` quoted for a POSIX shell when it needs it: single quotes, each `'` inside written `'\''`.
    public static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "/._-+,:@%".unicodeScalars.contains($0)
        }
        if plain && !word.isEmpty { return word }
        var out = "'"
        for character in word { out += character == "'" ? #"'\''"# : String(character) }
        return out + "'"
    }
}
