import Foundation
import HoorayKit
import HoorayText

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
    public static let maxTextLength = TextLimits.text
    /// The longest note, in characters.
    public static let maxNoteLength = TextLimits.text
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
        if let near = NameSuggestion.closest(to: key, among: names) {
            message += "; did you mean \(near)? "
        } else {
            message += ". "
        }
        message += "The moods are \(names.joined(separator: ", "))."
        throw PluginCommandError.invalidValue("--mood", message)
    }

    /// Checks photo paths: each must be an absolute path to a readable regular file that is an image.
    ///
    /// An image is recognised by its first bytes, not by its name: PNG, JPEG, GIF, WebP, HEIC/HEIF,
    /// AVIF, BMP, TIFF and JPEG XL.
    ///
    /// - Throws: ``PluginCommandError`` naming the first path that is not, and what it is instead: a
    ///   failure (the file is not what it should be), or an invalid value of `--photo` (a usage
    ///   error) for an empty path or too many photos.
    public static func checkPhotos(_ photos: [String]) throws {
        guard photos.count <= maxPhotos else {
            throw PluginCommandError.invalidValue(
                "--photo", "a moment takes at most \(maxPhotos) photos; \(photos.count) were given")
        }
        for path in photos {
            guard !path.isEmpty else {
                throw PluginCommandError.invalidValue(
                    "--photo", "--photo needs a file, and \"\" names none; give the photo's path")
            }
            var isDirectory: ObjCBool = false
            guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw PluginCommandError("--photo \(path): there is no such file; check the path")
            }
            guard !isDirectory.boolValue else {
                throw PluginCommandError("--photo \(path) is a folder; give the photo file itself")
            }
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            let type = (try? FileManager.default.attributesOfItem(atPath: resolved))?[.type] as? FileAttributeType
            guard type == .typeRegular else {
                throw PluginCommandError(
                    "--photo \(path) is not a regular file (it is a device, socket or pipe); give a photo file")
            }
            guard FileManager.default.isReadableFile(atPath: path), let handle = FileHandle(forReadingAtPath: path)
            else {
                throw PluginCommandError("--photo \(path) cannot be read; check its permissions (chmod u+r)")
            }
            let head = [UInt8]((try? handle.read(upToCount: 32)) ?? Data())
            try? handle.close()
            guard PhotoFormat(head) != nil else {
                let what = PhotoFormat.describe(head).map { "\($0), not an image" } ?? "is not an image I recognise"
                throw PluginCommandError(
                    "--photo \(path) \(what); give a PNG, JPEG, GIF, WebP, HEIC, AVIF, BMP or TIFF photo")
            }
        }
    }
}

/// The image formats a photo may have, recognised by the file's first bytes.
enum PhotoFormat: String {
    case png, jpeg, gif, webp, heif, avif, bmp, tiff, jpegXL

    /// The format of a file that starts with `head`, or `nil` when it is no image known here.
    init?(_ head: [UInt8]) {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if ascii("GIF87a") || ascii("GIF89a") {
            self = .gif
        } else if ascii("RIFF") && ascii("WEBP", at: 8) {
            self = .webp
        } else if ascii("ftyp", at: 4), head.count >= 12 {
            let brand = String(decoding: head[8..<12], as: UTF8.self)
            switch brand {
            case "avif", "avis": self = .avif
            case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1": self = .heif
            default: return nil
            }
        } else if ascii("BM") && head.count >= 14 {
            self = .bmp
        } else if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) {
            self = .tiff
        } else if starts([0xFF, 0x0A]) || starts([0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            self = .jpegXL
        } else {
            return nil
        }
    }

    /// What a file that is no image seems to be, for the message: `is empty`, `is a text file`;
    /// `nil` when it is not clear.
    static func describe(_ head: [UInt8]) -> String? {
        if head.isEmpty { return "is empty" }
        if head.starts(with: Array("%PDF".utf8)) { return "is a PDF document" }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "is a ZIP archive (or an office document)" }
        if head.starts(with: [0x7F, 0x45, 0x4C, 0x46]) { return "is a program" }
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 != 0x7F) }) {
            return "is a text file"
        }
        return nil
    }
}
