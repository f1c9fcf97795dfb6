import FoundationEssentials

/// How sync is doing, as `hooray sync status` shows it (control method `sync_status`).
public struct SyncStatus: Codable, Sendable, Equatable {
    /// The sync folder, when sync is set up; `nil` while it is off.
    public var folder: String?
    /// This computer's device id.
    public var device: String?
    /// Whether the folder is there now.
    public var folderPresent: Bool
    /// The other computers whose segments were read, with how many.
    public var peers: [Peer]
    /// Changes recorded here and not yet written to the folder.
    public var unsent: Int
    /// When a segment was last written here.
    public var lastSent: Date?
    /// When another computer's segment was last read.
    public var lastReceived: Date?
    /// What was left alone or went wrong lately, newest last, each with its fix.
    public var problems: [String]

    /// Another computer.
    public struct Peer: Codable, Sendable, Equatable {
        /// Its device id.
        public var device: String
        /// How many of its segments were read.
        public var segments: Int

        /// Creates one.
        public init(device: String, segments: Int) {
            self.device = device
            self.segments = segments
        }
    }

    /// Creates a status.
    public init(
        folder: String?, device: String?, folderPresent: Bool, peers: [Peer], unsent: Int, lastSent: Date?,
        lastReceived: Date?, problems: [String]
    ) {
        self.folder = folder
        self.device = device
        self.folderPresent = folderPresent
        self.peers = peers
        self.unsent = unsent
        self.lastSent = lastSent
        self.lastReceived = lastReceived
        self.problems = problems
    }

    enum CodingKeys: String, CodingKey {
        case folder, device, peers, unsent, problems
        case folderPresent = "folder_present"
        case lastSent = "last_sent"
        case lastReceived = "last_received"
    }
}
