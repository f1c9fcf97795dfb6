import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The `[plugins.recovery]` section.
///
/// ```toml
/// [plugins.recovery]
/// follow_up_min_impact = 7   # a rejection this painful (1–10) gets a follow-up
/// follow_up_after = "24h"    # …this long after it happened
/// checkin = true             # the daily check-in reminder, now; false for none
/// checkin_at = "20:00"
/// challenge_at = "09:00"     # the morning challenge reminder, now; "off" for none
/// ai = false                 # let AI praise replace the encouraging line (type and impact only are sent)
/// ```
///
/// The check-in and the challenge start with the user's first use of the plugin (a rejection, a
/// check-in or a challenge logged) when the section says nothing of them (``RecurringNotices``);
/// `checkin = true`, `checkin_at` or a time in `challenge_at` starts them at once, and `checkin = false` or
/// `challenge_at = "off"` turns them off.
public struct RecoveryConfiguration: Decodable, Sendable, Equatable {
    /// The least impact that gets a follow-up, 1–10; 11 turns follow-ups off.
    public var followUpMinImpact: Int
    /// How long after a rejection its follow-up comes.
    public var followUpAfter: ConfigDuration
    /// Whether the daily check-in reminder is shown: `false` when `checkin = false` turned it off.
    public var checkIn: Bool
    /// When the daily check-in starts: at once when `checkin = true` or `checkin_at` is written, else
    /// on first use.
    public var checkInStart: RecurringNoticeStart
    /// When the daily check-in reminder is shown.
    public var checkInAt: TimeOfDay
    /// When the morning challenge reminder is shown; `nil` for none.
    public var challengeAt: TimeOfDay?
    /// When the morning challenge starts: at once when `challenge_at` names a time, else on first use.
    public var challengeStart: RecurringNoticeStart
    /// Whether AI praise may replace the encouraging line of a logged rejection.
    public var ai: Bool

    enum CodingKeys: String, CodingKey {
        case followUpMinImpact = "follow_up_min_impact"
        case followUpAfter = "follow_up_after"
        case checkIn = "checkin"
        case checkInAt = "checkin_at"
        case challengeAt = "challenge_at"
        case ai
    }

    /// Creates a configuration; the defaults are the section's.
    public init(
        followUpMinImpact: Int = 7, followUpAfter: ConfigDuration = ConfigDuration(seconds: 86400),
        checkIn: Bool = true, checkInStart: RecurringNoticeStart = .onFirstUse,
        checkInAt: TimeOfDay = TimeOfDay(hour: 20)!,
        challengeAt: TimeOfDay? = TimeOfDay(hour: 9)!, challengeStart: RecurringNoticeStart = .onFirstUse,
        ai: Bool = false
    ) {
        self.followUpMinImpact = followUpMinImpact
        self.followUpAfter = followUpAfter
        self.checkIn = checkIn
        self.checkInStart = checkInStart
        self.challengeStart = challengeStart
        self.checkInAt = checkInAt
        self.challengeAt = challengeAt
        self.ai = ai
    }

    /// Decodes the section; every key is optional, and every mistake is reported, each at its key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var errors = ConfigErrorCollector()
        let defaults = RecoveryConfiguration()
        followUpMinImpact =
            (errors.attempt {
                let value = try container.decodeIfPresent(Int.self, forKey: .followUpMinImpact)
                if let value, !(1...11).contains(value) {
                    throw DecodingError.dataCorruptedError(
                        forKey: .followUpMinImpact, in: container,
                        debugDescription:
                            "follow_up_min_impact must be an impact from 1 to 10, such as 7 (11 turns follow-ups off)")
                }
                return value
            } ?? nil) ?? defaults.followUpMinImpact
        followUpAfter =
            errors.attempt {
                try container.decodeDuration(.followUpAfter, default: defaults.followUpAfter, within: 60...(14 * 86400))
            } ?? defaults.followUpAfter
        let checkInSaid = errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .checkIn) } ?? nil
        checkIn = checkInSaid ?? true
        // Written on, or given a time: the user asked for it.
        checkInStart = checkInSaid == true || container.contains(.checkInAt) ? .now : .onFirstUse
        checkInAt =
            (errors.attempt { try container.decodeIfPresent(TimeOfDay.self, forKey: .checkInAt) } ?? nil)
            ?? defaults.checkInAt
        challengeAt =
            errors.attempt { try container.decodeTimeOrOff(.challengeAt, default: defaults.challengeAt) }
            ?? defaults.challengeAt
        challengeStart = container.contains(.challengeAt) && challengeAt != nil ? .now : .onFirstUse
        ai = (errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .ai) } ?? nil) ?? false
        try errors.throwIfAny()
    }
}
