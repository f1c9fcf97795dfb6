import Foundation
import HoorayKit

/// The `[plugins.recovery]` section.
///
/// ```toml
/// [plugins.recovery]
/// follow_up_min_impact = 7   # a rejection this painful (1–10) gets a follow-up
/// follow_up_after = "24h"    # …this long after it happened
/// checkin = true             # the daily check-in reminder
/// checkin_at = "20:00"
/// challenge_at = "09:00"     # the morning challenge reminder; "off" for none
/// ai = false                 # let AI praise replace the encouraging line (type and impact only are sent)
/// ```
public struct RecoveryConfiguration: Decodable, Sendable, Equatable {
    /// The least impact that gets a follow-up, 1–10; 11 turns follow-ups off.
    public var followUpMinImpact: Int
    /// How long after a rejection its follow-up comes.
    public var followUpAfter: ConfigDuration
    /// Whether the daily check-in reminder is shown.
    public var checkIn: Bool
    /// When the daily check-in reminder is shown.
    public var checkInAt: TimeOfDay
    /// When the morning challenge reminder is shown; `nil` for none.
    public var challengeAt: TimeOfDay?
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
        checkIn: Bool = true, checkInAt: TimeOfDay = TimeOfDay(hour: 20)!,
        challengeAt: TimeOfDay? = TimeOfDay(hour: 9)!, ai: Bool = false
    ) {
        self.followUpMinImpact = followUpMinImpact
        self.followUpAfter = followUpAfter
        self.checkIn = checkIn
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
        checkIn = (errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .checkIn) } ?? nil) ?? true
        checkInAt =
            (errors.attempt { try container.decodeIfPresent(TimeOfDay.self, forKey: .checkInAt) } ?? nil)
            ?? defaults.checkInAt
        challengeAt =
            errors.attempt { try container.decodeTimeOrOff(.challengeAt, default: defaults.challengeAt) }
            ?? defaults.challengeAt
        ai = (errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .ai) } ?? nil) ?? false
        try errors.throwIfAny()
    }
}
