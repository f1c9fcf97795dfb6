import Foundation
import HoorayKit

/// A small win the user logged: the model of seed 001, kept on this computer.
///
/// A moment is saved the instant it is logged, with offline praise; AI praise is added when the
/// configured service answers, now or on a later retry.
public struct Moment: Sendable, Hashable, Codable, Identifiable {
    /// Whether the AI service has seen the moment.
    public enum SyncState: String, Sendable, Hashable, Codable {
        /// Kept on this computer only: AI was off when it was logged.
        case local
        /// Waiting for AI praise: the last request failed and will be retried.
        case pending
        /// The AI service answered; ``Moment/aiPraise`` holds its praise.
        case synced
    }

    /// The moment's id, made on this computer (the seed's client UUID).
    public var id: UUID
    /// What the user did, in their words; for a moment logged without words, ``placeholderText``.
    public var text: String
    /// Whether the user gave no words, so ``text`` is the private placeholder.
    public var isPlaceholder: Bool
    /// When it was logged.
    public var submittedAt: Date
    /// When it happened, which may be earlier (`hooray win --ago 2h`).
    public var happenedAt: Date
    /// The user's IANA time zone when it was logged.
    public var timeZone: String
    /// Seconds between ``happenedAt`` and ``submittedAt``.
    public var timeAgo: Int
    /// The praise shown at once, from the offline pool.
    public var offlinePraise: String
    /// The AI service's praise, when it answered.
    public var aiPraise: String?
    /// How the user felt, when they said.
    public var mood: Mood?
    /// The user's note, when they wrote one.
    public var note: String?
    /// Absolute paths of photos the user attached; the files stay where they are.
    public var photos: [String]
    /// Tags the AI service found.
    public var tags: [String]
    /// The kind of action the AI service recognised, such as `exercise`.
    public var action: String?
    /// Whether the user marked it a favourite.
    public var isFavorite: Bool
    /// Whether the AI service has seen it.
    public var sync: SyncState
    /// The AI service's id for it, after a successful sync.
    public var serverID: String?
    /// Why the last AI request failed, for a person; never holds a secret.
    public var syncError: String?
    /// How many AI requests failed in a row.
    public var syncAttempts: Int
    /// When the next AI request is due, while ``sync`` is ``SyncState/pending``.
    public var nextSyncAt: Date?

    /// The words stored for a moment logged without any.
    public static let placeholderText = "A private moment"

    /// The praise to show: the AI's when there is some, the offline praise otherwise.
    public var praise: String { aiPraise ?? offlinePraise }

    /// Creates a moment.
    public init(
        id: UUID = UUID(), text: String, isPlaceholder: Bool = false, submittedAt: Date, happenedAt: Date,
        timeZone: String, offlinePraise: String, aiPraise: String? = nil, mood: Mood? = nil, note: String? = nil,
        photos: [String] = [], tags: [String] = [], action: String? = nil, isFavorite: Bool = false,
        sync: SyncState = .local, serverID: String? = nil, syncError: String? = nil, syncAttempts: Int = 0,
        nextSyncAt: Date? = nil
    ) {
        self.id = id
        self.text = text
        self.isPlaceholder = isPlaceholder
        self.submittedAt = submittedAt
        self.happenedAt = happenedAt
        self.timeZone = timeZone
        self.timeAgo = max(0, Int(submittedAt.timeIntervalSince(happenedAt).rounded()))
        self.offlinePraise = offlinePraise
        self.aiPraise = aiPraise
        self.mood = mood
        self.note = note
        self.photos = photos
        self.tags = tags
        self.action = action
        self.isFavorite = isFavorite
        self.sync = sync
        self.serverID = serverID
        self.syncError = syncError
        self.syncAttempts = syncAttempts
        self.nextSyncAt = nextSyncAt
    }
}

/// How the user felt about a moment (`hooray win --mood calm`).
public enum Mood: String, Sendable, Hashable, Codable, CaseIterable {
    case calm, happy, proud, grateful, hopeful, relieved, tired, anxious, sad

    /// The emoji shown beside the mood.
    public var emoji: String {
        switch self {
        case .calm: "🙂"
        case .happy: "😊"
        case .proud: "💪"
        case .grateful: "🙏"
        case .hopeful: "🌱"
        case .relieved: "😌"
        case .tired: "🌙"
        case .anxious: "🌧"
        case .sad: "💙"
        }
    }

    /// The label of a day whose moments mostly felt like this, as Journey shows it.
    public var dayLabel: String {
        switch self {
        case .calm: "Calm day"
        case .happy: "Happy day"
        case .proud: "Proud day"
        case .grateful: "Grateful day"
        case .hopeful: "Hopeful day"
        case .relieved: "Lighter day"
        case .tired: "Tired but trying day"
        case .anxious: "Brave day"
        case .sad: "Tender day"
        }
    }
}
