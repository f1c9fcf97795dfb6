import HoorayGtk

/// The moods as the window shows them: words of the user's language, not the wire's names.
extension DaemonLink {
    /// A mood of ``moods`` as the window says it, in the user's language.
    static func moodName(_ mood: String) -> String {
        switch mood {
        case "calm": localized("Calm")
        case "happy": localized("Happy")
        case "proud": localized("Proud")
        case "grateful": localized("Grateful")
        case "hopeful": localized("Hopeful")
        case "relieved": localized("Relieved")
        case "tired": localized("Tired")
        case "anxious": localized("Anxious")
        case "sad": localized("Sad")
        default: mood
        }
    }

    /// The choices of a mood drop-down: none first, then ``moods`` in order.
    static var moodChoices: [String] { [localized("No mood")] + moods.map(moodName) }
}
