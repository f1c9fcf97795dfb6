import Foundation
import HoorayKit

/// Graceful words for a reply after a rejection (seed 002 §3, `getTemplates`), with placeholders
/// such as `[Name]` for the user to fill.
public struct ResponseTemplate: Sendable, Hashable, Codable, Identifiable {
    /// A stable id, kebab-case, such as `after-being-ghosted`.
    public var id: String
    /// The kind of rejection it answers.
    public var type: RejectionType
    /// The title, such as `After Being Ghosted`.
    public var title: String
    /// When to use it, such as `When someone stops responding completely`.
    public var scenario: String
    /// Its tone, such as `Graceful exit`.
    public var tone: String
    /// The text, with placeholders such as `[Name]`.
    public var text: String

    /// Creates a template.
    public init(id: String, type: RejectionType, title: String, scenario: String, tone: String, text: String) {
        self.id = id
        self.type = type
        self.title = title
        self.scenario = scenario
        self.tone = tone
        self.text = text
    }

    /// The names of its placeholders, in order of first appearance: `Name` for `[Name]`.
    public var placeholders: [String] {
        var names: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "[") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "]") else { break }
            let name = String(after[..<close])
            if !name.isEmpty, !names.contains(name) { names.append(name) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    /// The text with each placeholder named in `values` replaced by its value; the others stay as
    /// they are, such as `[Company]`.
    public func filled(_ values: [String: String]) -> String {
        // One pass, so that a value holding brackets is never filled in turn.
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            result += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            result += values[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}

/// Every response template.
public enum ResponseTemplates {
    /// The seed's templates for dating and jobs, and two in the same voice for each other kind.
    public static let all: [ResponseTemplate] = [
        ResponseTemplate(
            id: "after-being-ghosted", type: .dating, title: "After Being Ghosted",
            scenario: "When someone stops responding completely", tone: "Graceful exit",
            text:
                "Hey [Name], I noticed we haven't connected in a while. No worries if you're not interested - I appreciate the good conversations we had. Take care!"
        ),
        ResponseTemplate(
            id: "after-direct-rejection", type: .dating, title: "After Direct Rejection",
            scenario: "When someone says they're not interested", tone: "Mature response",
            text: "Thanks for being honest with me. I respect that and wish you the best!"),
        ResponseTemplate(
            id: "following-up-after-silence", type: .job, title: "Following Up After Silence",
            scenario: "When you haven't heard back about an application", tone: "Professional persistence",
            text:
                "Hi [Name], I wanted to follow up on my application for [Position]. I'm still very interested and would love to discuss how my skills could contribute to [Company]. Thank you for your time."
        ),
        ResponseTemplate(
            id: "responding-to-rejection", type: .job, title: "Responding to Rejection",
            scenario: "When you receive a rejection email", tone: "Professional grace",
            text:
                "Thank you for letting me know. While I'm disappointed, I appreciate the opportunity to interview. If any similar positions open up, I'd love to be considered. Best wishes to your team."
        ),
        ResponseTemplate(
            id: "after-being-left-out", type: .social, title: "After Being Left Out",
            scenario: "When friends made plans without you", tone: "Open door",
            text:
                "Hey [Name], looks like you all had a great time at [Event]! I'd love to join next time - let me know when you're planning something."
        ),
        ResponseTemplate(
            id: "after-an-awkward-moment", type: .social, title: "After an Awkward Moment",
            scenario: "When something you said didn't land the way you meant", tone: "Honest repair",
            text:
                "Hey [Name], I've been thinking about what I said earlier - it came out differently than I meant. I really value our friendship. Thanks for understanding!"
        ),
        ResponseTemplate(
            id: "after-a-program-rejection", type: .academic, title: "After a Program Rejection",
            scenario: "When a school or program says no", tone: "Growth mindset",
            text:
                "Thank you for considering my application to [Program]. While I'm disappointed, I'm grateful for the opportunity. Could you share any feedback that might help me strengthen a future application?"
        ),
        ResponseTemplate(
            id: "asking-about-a-grade", type: .academic, title: "Asking About a Grade",
            scenario: "When a grade is lower than you hoped", tone: "Curious and respectful",
            text:
                "Hi [Name], I'd like to understand how I can improve on [Assignment]. Would you have a few minutes to go over the feedback with me? Thank you!"
        ),
        ResponseTemplate(
            id: "accepting-a-no", type: .other, title: "Accepting a No",
            scenario: "When a request is turned down", tone: "Gracious acceptance",
            text:
                "Thanks for letting me know, [Name]. I appreciate you being straightforward, and I hope we can find another way to work together."
        ),
        ResponseTemplate(
            id: "closing-the-loop", type: .other, title: "Closing the Loop",
            scenario: "When you're still waiting for an answer", tone: "Friendly clarity",
            text:
                "Hi [Name], just checking in about [Topic]. No pressure either way - a quick yes or no would help me plan. Thanks!"
        ),
    ]

    /// The templates for a kind of rejection, or every template for `nil`, grouped by kind in the
    /// order of ``RejectionType/allCases``.
    public static func templates(for type: RejectionType?) -> [ResponseTemplate] {
        RejectionType.allCases.filter { type == nil || $0 == type }.flatMap { kind in
            all.filter { $0.type == kind }
        }
    }
}
