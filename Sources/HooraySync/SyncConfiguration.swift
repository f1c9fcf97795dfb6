import FoundationEssentials

/// The `[sync]` section: the folder through which this computer syncs with the user's others
/// (docs/sync.md); none by default. `hooray sync setup FOLDER` writes it.
///
/// ```toml
/// [sync]
/// folder = "~/Sync/hooray"
/// ```
public struct SyncConfiguration: Sendable, Equatable, Decodable {
    /// The section's name.
    public static let sectionName = "sync"
    /// No folder: sync is off.
    public static let defaults = SyncConfiguration(folder: nil)

    /// The folder, as written: an absolute path, or one under `~/`.
    public var folder: String?

    /// Creates the section.
    public init(folder: String?) {
        self.folder = folder
    }

    enum CodingKeys: String, CodingKey { case folder }

    /// Decodes the section, refusing a folder that is empty or not absolute.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let folder = try container.decodeIfPresent(String.self, forKey: .folder)
        if let folder, !(folder.hasPrefix("/") || folder.hasPrefix("~/")) || folder.contains("\0") {
            throw DecodingError.dataCorruptedError(
                forKey: .folder, in: container,
                debugDescription:
                    "the sync folder \"\(folder)\" is not a full path; write it from / or ~/, such as \"~/Sync/hooray\""
            )
        }
        self.folder = folder
    }

    /// The folder's path, `~/` read as `home`; `nil` while sync is off.
    public func folderPath(home: String) -> String? {
        guard let folder else { return nil }
        return folder.hasPrefix("~/") ? home + folder.dropFirst(1) : folder
    }
}
