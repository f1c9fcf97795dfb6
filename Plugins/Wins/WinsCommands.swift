import Foundation
import HoorayKit

/// A moment to log, as `hooray win` or the welcome's "Log it" button gives it.
struct LogRequest: Sendable, Hashable {
    /// What the user did; `nil` or blank for a moment without words.
    var text: String?
    /// How long ago it happened, as written: `5m`, `2h`, `3d`, `1h30m`; `nil` for just now.
    var ago: String?
    /// How the user felt, by name (``Mood``).
    var mood: String?
    /// A note.
    var note: String?
    /// Photo paths, absolute.
    var photos: [String]

    /// Creates a request.
    init(
        text: String? = nil, ago: String? = nil, mood: String? = nil, note: String? = nil, photos: [String] = []
    ) {
        self.text = text
        self.ago = ago
        self.mood = mood
        self.note = note
        self.photos = photos
    }
}

/// A logged moment, for the command that logged it to print.
struct LogReply: Sendable, Hashable {
    /// The moment as saved, with its offline praise.
    var moment: Moment
    /// The notice showing it.
    var notice: Int64
    /// Whether this was the user's first moment.
    var wasFirst: Bool
}

/// The rules a logged moment must follow: lengths, how far back, moods and photos.
public enum MomentRules {
    /// The longest text, in characters.
    public static let maxTextLength = 2000
    /// The longest note, in characters.
    public static let maxNoteLength = 2000
    /// The most photos on one moment.
    public static let maxPhotos = 20
    /// The furthest back `--ago` may go, in seconds: a year.
    public static let maxAgo = 366 * 86400
    /// The words of the first moment when the user gives none (seed 001 §4.1).
    public static let firstMomentText = "I installed this app. A tiny step, but it counts."

    /// Parses `--mood`.
    ///
    /// - Throws: ``PluginCommandError`` listing the moods.
    public static func parseMood(_ text: String) throws -> Mood {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let mood = Mood(rawValue: key) { return mood }
        let names = Mood.allCases.map(\.rawValue)
        var message = "--mood \"\(text)\" is not a mood I know"
        if let near = NameSuggestion.closest(to: key, among: names) { message += "; did you mean \(near)?" }
        message += " Moods: \(names.joined(separator: ", "))"
        throw PluginCommandError.invalidValue("--mood", message)
    }

    /// Checks photo paths: each must be an absolute path to a readable file.
    ///
    /// - Throws: ``PluginCommandError`` naming the first path that is not.
    public static func checkPhotos(_ photos: [String]) throws {
        guard photos.count <= maxPhotos else {
            throw PluginCommandError("a moment takes at most \(maxPhotos) photos; \(photos.count) were given")
        }
        for path in photos {
            var isDirectory: ObjCBool = false
            guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PluginCommandError("--photo \(path): there is no such file; check the path")
            }
            guard !isDirectory.boolValue else {
                throw PluginCommandError("--photo \(path) is a folder; give the photo file itself")
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw PluginCommandError("--photo \(path) cannot be read; check its permissions (chmod u+r)")
            }
        }
    }
}
