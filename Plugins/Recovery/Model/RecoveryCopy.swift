import Foundation
import HoorayKit
import HoorayText

/// The words of the recovery plugin, from seed 002 (ResilientMe) and in its voice: warm, never
/// shaming, never pressing.
public enum RecoveryCopy {
    /// The recovery card's title for a situation (seed 002 §3, `getRecoveryTitle`): the seed's
    /// "Ghosted Again?" only when the note says it was ghosting.
    public static func title(for situation: RecoverySituation) -> String {
        switch (situation.type, situation.isSilence) {
        case (.dating, true): "Ghosted Again? You're Not Alone"
        case (.dating, false) where situation.template != nil: "Not the Answer You Hoped For? You're Not Alone"
        case (.dating, false): "Dating Is Hard Sometimes. You're Not Alone"
        case (.job, true): "Still Waiting? Let's Rebuild Your Confidence"
        case (.job, false): "Another 'No'? Let's Rebuild Your Confidence"
        case (.social, _): "Awkward Moment? Everyone Has Them"
        case (.academic, _): "Rejection Builds Character"
        case (.other, _): "This Too Shall Pass"
        }
    }

    /// The heading of the plan's steps.
    public static let planHeading = "5-Minute Recovery Plan:"

    /// The five steps of the plan for a situation (seed 002 §3, `getRecoverySteps`). The seed's dating
    /// plan speaks of ghosting, so it is for ghosting only; any other dating "no" gets the seed's own
    /// steps without the ghosting line.
    public static func plan(for situation: RecoverySituation) -> [String] {
        switch situation.type {
        case .dating where situation.isSilence:
            [
                "Take 3 deep breaths - this is about them, not you",
                "Remember: 77% of Gen Z have ghosted someone",
                "Text a friend who makes you laugh",
                "Do one thing that makes you feel good about yourself",
                "Remind yourself of your worth - write down 3 good qualities",
            ]
        case .dating:
            [
                "Take 3 deep breaths - this is about them, not you",
                "Acknowledge the feeling without judgment",
                "Text a friend who makes you laugh",
                "Do one thing that makes you feel good about yourself",
                "Remind yourself of your worth - write down 3 good qualities",
            ]
        case .job:
            [
                "Remember: average job gets 240+ applications",
                "This rejection brings you closer to the right fit",
                "Update your application tracker",
                "Apply to 2 more positions today",
                "Celebrate that you're putting yourself out there",
            ]
        case .social, .academic, .other:
            [
                "Acknowledge the feeling without judgment",
                "Put it in perspective - is this important in a year?",
                "Do something kind for yourself",
                "Connect with someone who supports you",
                "Focus on what you can control going forward",
            ]
        }
    }

    /// The plan as lines: the heading, then each step after a check mark.
    public static func planLines(for situation: RecoverySituation) -> [String] {
        [planHeading] + plan(for: situation).map { "✓ \($0)" }
    }

    /// The line that points at the response template fitting the situation, or at the kind's
    /// templates when the note names no situation.
    public static func templateLine(for situation: RecoverySituation) -> String {
        let command = "hooray recovery templates --type \(situation.type.rawValue)"
        guard let template = situation.template, let number = situation.templateNumber else {
            return "Words for a reply, if you want one: \(command)"
        }
        return "Words for a reply, if you want one: \(template.title) (\(command) --number \(number))"
    }

    /// Encouraging lines for a situation; one is shown when a rejection is logged. The seed's line on
    /// "their communication style" is for ghosting only.
    public static func encouragements(for situation: RecoverySituation) -> [String] {
        switch situation.type {
        case .dating where situation.isSilence:
            [
                "This is about their communication style, not your worth.",
                "Someone not choosing you is not a verdict on you.",
                "You showed up with an open heart. That takes courage.",
            ]
        case .dating:
            [
                "Someone not choosing you is not a verdict on you.",
                "You showed up with an open heart. That takes courage.",
            ]
        case .job:
            [
                "A 'no' is about one opening, not about what you can do.",
                "Every application you send is practice, and practice adds up.",
                "You're putting yourself out there. That's the hard part.",
            ]
        case .social:
            [
                "Everyone replays awkward moments. Almost nobody else remembers them.",
                "One moment doesn't define how people see you.",
                "You reached out. That's worth more than how it landed.",
            ]
        case .academic:
            [
                "A rejection letter grades one application, not you.",
                "Many people you admire heard 'no' first.",
                "You aimed high. Keep aiming.",
            ]
        case .other:
            [
                "This feeling is real, and it will pass.",
                "Be as kind to yourself as you would be to a friend.",
                "You're still here, and you're still growing.",
            ]
        }
    }

    /// The 24-hour follow-up's title (seed 002 §7).
    public static let followUpTitle = "How are you doing?"
    /// The follow-up's body for one rejection (seed 002 §7).
    public static let followUpBody = "Yesterday was tough. You're stronger than you know."

    /// The follow-up's body for `count` rejections whose follow-ups fell in the same hour; the seed's
    /// "Yesterday" only when the rejections were about a day ago.
    public static func followUpBody(count: Int, yesterday: Bool = true) -> String {
        switch (count, yesterday) {
        case (...1, true): followUpBody
        case (...1, false): "That was a tough time. You're stronger than you know."
        case (_, true): "Yesterday was tough: \(count) hard moments. You're stronger than you know."
        case (_, false): "That was a tough time: \(count) hard moments. You're stronger than you know."
        }
    }

    /// The daily check-in's title and body (seed 002 §7).
    public static let checkInTitle = "How are you feeling today?"
    /// The daily check-in's body.
    public static let checkInBody = "Take 30 seconds to check in with yourself"

    /// The resilience score's message for a score of 0–100 (seed 002 §2, `getResilienceMessage`).
    public static func scoreMessage(_ score: Int) -> String {
        switch score {
        case 80...: "You're bouncing back stronger! 🚀"
        case 60..<80: "Building solid resilience 💪"
        case 40..<60: "Making progress, keep going 📈"
        case 20..<40: "Every step counts 🌱"
        default: "You're taking the first step 🌟"
        }
    }

    /// A face for how much a rejection hurt, 1–10, for the impact question and lists.
    public static func face(forImpact impact: Int) -> String {
        ImpactFaces.face(forImpact: impact)
    }
}
