import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit

/// The `[plugins.swaps]` section.
///
/// ```toml
/// [plugins.swaps]
/// celebrations = "calm"          # calm | playful | off; else [celebrations] style
/// milestones = [3, 7, 14, 30]    # swap streaks celebrated big, once per run
/// inspiration = true             # one sentence a day
/// night_prep = "21:00"           # "Prep tonight: what's your swap for tomorrow?"; "off" for none
/// morning_focus = "08:00"        # "From last night:" and the day's inspiration; "off" for none
/// ```
///
/// Night Prep and Morning Focus start with the user's first swap or prep when the section says
/// nothing of them (``RecurringNotices``); a time written in `night_prep` or `morning_focus`
/// starts that one at once, and `"off"` turns it off.
public struct SwapsConfiguration: Decodable, Sendable, Equatable {
    /// The streak lengths celebrated big, ascending.
    public var milestones: MilestoneSet
    /// Whether the daily inspiration is shown.
    public var inspiration: Bool
    /// When the Night Prep reminder comes; `nil` for none.
    public var nightPrep: TimeOfDay?
    /// When the Morning Focus reminder comes; `nil` for none.
    public var morningFocus: TimeOfDay?
    /// When Night Prep starts: at once when `night_prep` names a time, else on first use.
    public var nightPrepStart: RecurringNoticeStart
    /// When Morning Focus starts: at once when `morning_focus` names a time, else on first use.
    public var morningFocusStart: RecurringNoticeStart

    enum CodingKeys: String, CodingKey {
        case milestones, inspiration
        case nightPrep = "night_prep"
        case morningFocus = "morning_focus"
    }

    /// Creates a configuration; the defaults are the section's.
    public init(
        milestones: MilestoneSet = .swaps, inspiration: Bool = true, nightPrep: TimeOfDay? = TimeOfDay(hour: 21)!,
        morningFocus: TimeOfDay? = TimeOfDay(hour: 8)!, nightPrepStart: RecurringNoticeStart = .onFirstUse,
        morningFocusStart: RecurringNoticeStart = .onFirstUse
    ) {
        self.nightPrepStart = nightPrepStart
        self.morningFocusStart = morningFocusStart
        self.milestones = milestones
        self.inspiration = inspiration
        self.nightPrep = nightPrep
        self.morningFocus = morningFocus
    }

    /// Decodes the section; every key is optional, and every mistake is reported, each at its key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var errors = ConfigErrorCollector()
        let defaults = SwapsConfiguration()
        milestones =
            errors.attempt { () throws -> MilestoneSet in
                guard let days = try container.decodeIfPresent([Int].self, forKey: .milestones) else {
                    return defaults.milestones
                }
                guard !days.isEmpty, days.allSatisfy({ $0 > 0 }), zip(days, days.dropFirst()).allSatisfy({ $0 < $1 })
                else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .milestones, in: container,
                        debugDescription:
                            "milestones must be positive numbers of days, ascending, such as [3, 7, 14, 30]")
                }
                return MilestoneSet(days)
            } ?? defaults.milestones
        inspiration = (errors.attempt { try container.decodeIfPresent(Bool.self, forKey: .inspiration) } ?? nil) ?? true
        nightPrep =
            errors.attempt { try container.decodeTimeOrOff(.nightPrep, default: defaults.nightPrep) }
            ?? defaults.nightPrep
        morningFocus =
            errors.attempt { try container.decodeTimeOrOff(.morningFocus, default: defaults.morningFocus) }
            ?? defaults.morningFocus
        nightPrepStart = container.contains(.nightPrep) && nightPrep != nil ? .now : .onFirstUse
        morningFocusStart = container.contains(.morningFocus) && morningFocus != nil ? .now : .onFirstUse
        try errors.throwIfAny()
    }
}
