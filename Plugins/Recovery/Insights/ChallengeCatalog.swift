import Foundation
import HoorayCalendar
import HoorayKit

/// A daily resilience challenge (seed 002 §4): one small, concrete step, worth a few points.
public struct Challenge: Sendable, Hashable, Codable, Identifiable {
    /// A stable id, kebab-case, such as `small-social-step`; kept in ``ChallengeEntry/challengeID``.
    public var id: String
    /// The title, such as `Small Social Step`.
    public var title: String
    /// What to do, such as `Start a conversation with one new person today`.
    public var description: String
    /// The points it gives when done.
    public var points: Int
    /// About how long it takes, such as `5 minutes`.
    public var timeEstimate: String
    /// The kind of rejection it is picked for.
    public var type: RejectionType
    /// The resilience level it is picked for.
    public var level: ResilienceLevel

    /// Creates a challenge.
    public init(
        id: String, title: String, description: String, points: Int, timeEstimate: String, type: RejectionType,
        level: ResilienceLevel
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.points = points
        self.timeEstimate = timeEstimate
        self.type = type
        self.level = level
    }
}

/// Every daily challenge, and how the day's is chosen.
///
/// The seed's table (`generateChallenge`) gives five: Small Social Step and Confidence Builder for
/// dating beginners and intermediates, Application Momentum and Network Expansion for jobs, and
/// Self-Care Check for everything else. Where the seed names a challenge, it is the day's, every
/// day. The rest — advanced ones, and social and academic ones at every level — are in the same
/// voice, at least two to a kind and level; the day's is one of them, picked by a hash of the date.
public enum ChallengeCatalog {
    /// Every challenge, by kind of rejection, then level.
    public static let all: [Challenge] = [
        // Dating.
        Challenge(
            id: "small-social-step", title: "Small Social Step",
            description: "Start a conversation with one new person today", points: 10, timeEstimate: "5 minutes",
            type: .dating, level: .beginner),
        Challenge(
            id: "confidence-builder", title: "Confidence Builder",
            description: "Ask someone for their number or social media", points: 25, timeEstimate: "10 minutes",
            type: .dating, level: .intermediate),
        Challenge(
            id: "first-move", title: "First Move",
            description: "Ask someone you like out for coffee, in person or by message", points: 40,
            timeEstimate: "15 minutes", type: .dating, level: .advanced),
        Challenge(
            id: "honest-check-in", title: "Honest Check-In",
            description: "Tell someone you're dating how you feel about where things are going", points: 45,
            timeEstimate: "20 minutes", type: .dating, level: .advanced),
        // Jobs.
        Challenge(
            id: "application-momentum", title: "Application Momentum",
            description: "Apply to 3 jobs today, focus on quality applications", points: 15,
            timeEstimate: "30 minutes", type: .job, level: .beginner),
        Challenge(
            id: "network-expansion", title: "Network Expansion",
            description: "Reach out to 2 people in your desired field on LinkedIn", points: 30,
            timeEstimate: "20 minutes", type: .job, level: .intermediate),
        Challenge(
            id: "stretch-application", title: "Stretch Application",
            description: "Apply to one role that feels just beyond your reach", points: 40,
            timeEstimate: "45 minutes", type: .job, level: .advanced),
        Challenge(
            id: "informational-interview", title: "Informational Interview",
            description: "Ask someone in a role you want for a 15-minute chat about their path", points: 45,
            timeEstimate: "20 minutes", type: .job, level: .advanced),
        // Social.
        Challenge(
            id: "say-hello", title: "Say Hello",
            description: "Greet a neighbor, classmate or coworker by name today", points: 10,
            timeEstimate: "2 minutes", type: .social, level: .beginner),
        Challenge(
            id: "reach-back-out", title: "Reach Back Out",
            description: "Send a friendly message to someone you haven't talked to in a while", points: 10,
            timeEstimate: "5 minutes", type: .social, level: .beginner),
        Challenge(
            id: "make-the-plan", title: "Make the Plan",
            description: "Invite a friend to do something specific this week", points: 25,
            timeEstimate: "10 minutes", type: .social, level: .intermediate),
        Challenge(
            id: "join-in", title: "Join In",
            description: "Add something to a conversation or group chat you'd usually just read", points: 20,
            timeEstimate: "10 minutes", type: .social, level: .intermediate),
        Challenge(
            id: "host-something-small", title: "Host Something Small",
            description: "Invite two or three people to something you organize, like a walk or a game night",
            points: 40, timeEstimate: "30 minutes", type: .social, level: .advanced),
        Challenge(
            id: "new-circle", title: "New Circle",
            description: "Go to a meetup, club or class where you don't know anyone yet", points: 45,
            timeEstimate: "1 hour", type: .social, level: .advanced),
        // Academic.
        Challenge(
            id: "study-sprint", title: "Study Sprint",
            description: "Work on one assignment for 25 focused minutes, phone in another room", points: 10,
            timeEstimate: "25 minutes", type: .academic, level: .beginner),
        Challenge(
            id: "ask-one-question", title: "Ask One Question",
            description: "Ask a classmate or teacher one question you've been holding back", points: 10,
            timeEstimate: "5 minutes", type: .academic, level: .beginner),
        Challenge(
            id: "office-hours", title: "Office Hours",
            description: "Visit office hours, or email a teacher, about one thing you'd like to understand better",
            points: 25, timeEstimate: "20 minutes", type: .academic, level: .intermediate),
        Challenge(
            id: "second-draft", title: "Second Draft",
            description: "Revise one piece of work using feedback you received", points: 25,
            timeEstimate: "30 minutes", type: .academic, level: .intermediate),
        Challenge(
            id: "try-again", title: "Try Again",
            description: "Start the next application, submission or retake for something that said no", points: 40,
            timeEstimate: "45 minutes", type: .academic, level: .advanced),
        Challenge(
            id: "find-a-mentor", title: "Find a Mentor",
            description: "Ask someone a few steps ahead of you to look over your work", points: 45,
            timeEstimate: "20 minutes", type: .academic, level: .advanced),
        // Everything else: self-care, the seed's default.
        Challenge(
            id: "self-care-check", title: "Self-Care Check",
            description: "Do one thing today that makes you feel good about yourself", points: 10,
            timeEstimate: "15 minutes", type: .other, level: .beginner),
        Challenge(
            id: "ask-for-it", title: "Ask for It",
            description: "Ask for something you want, knowing the answer might be no", points: 40,
            timeEstimate: "10 minutes", type: .other, level: .advanced),
        Challenge(
            id: "pay-it-forward", title: "Pay It Forward",
            description: "Encourage someone who is going through a rejection of their own", points: 35,
            timeEstimate: "15 minutes", type: .other, level: .advanced),
    ]

    /// The challenge with this id, or `nil`.
    public static func challenge(id: String) -> Challenge? {
        all.first { $0.id == id }
    }

    /// The challenges of a cell: for a kind of rejection at a level.
    /// The seed's default: Self-Care Check.
    public static var selfCareCheck: Challenge { challenge(id: "self-care-check")! }

    /// The challenges of one kind and level; one for a cell of the seed's table, none for a cell the
    /// seed leaves to its default (``selfCareCheck``).
    public static func candidates(for type: RejectionType, level: ResilienceLevel) -> [Challenge] {
        all.filter { $0.type == type && $0.level == level }
    }

    /// The day's challenge for a kind of rejection at a level: one of the cell's, by
    /// ``HoorayKit/LocalDate/stableIndex(among:)``, so that it is the same all day in every process.
    public static func pick(for type: RejectionType, level: ResilienceLevel, on day: LocalDate) -> Challenge {
        let cell = candidates(for: type, level: level)
        // A cell the seed left to its default is Self-Care Check's.
        guard !cell.isEmpty else { return selfCareCheck }
        return cell[day.stableIndex(among: cell.count)]
    }

    /// The most common kind of rejection in `rejections`; a tie goes to the kind of the latest
    /// rejection among the tied kinds; `nil` when there are none.
    public static func mostCommonType(of rejections: [Rejection]) -> RejectionType? {
        let counts = Dictionary(grouping: rejections, by: \.type).mapValues(\.count)
        guard let most = counts.values.max() else { return nil }
        let tied = Set(counts.filter { $0.value == most }.keys)
        return rejections.filter { tied.contains($0.type) }.max { $0.happenedAt < $1.happenedAt }?.type
    }

    /// What the day's challenge is chosen from: the kind of rejection and the resilience level, as
    /// they stood at the start of the day, so that nothing logged during the day changes it.
    public struct Basis: Sendable, Hashable, Codable {
        /// The most common kind of rejection of the 7 days before; `other` when there was none.
        public var type: RejectionType
        /// How many rejections of that kind those days held.
        public var count: Int
        /// The resilience score at the end of the day before.
        public var score: Int
        /// Its level.
        public var level: ResilienceLevel
    }

    /// What a day's challenge is chosen from.
    ///
    /// Only what was there before the day started counts: rejections that happened and were logged
    /// on the 7 days before it, and the resilience score at the end of the day before — rejections
    /// marked okay later count as not yet recovered, and check-ins and challenges of the day itself
    /// are left out.
    ///
    /// - Parameters:
    ///   - day: The day.
    ///   - rejections: Every rejection.
    ///   - checkIns: Every check-in.
    ///   - challenges: Every challenge entry.
    ///   - timeZone: The user's time zone, where days start.
    public static func basis(
        on day: LocalDate, rejections: [Rejection], checkIns: [CheckIn], challenges: [ChallengeEntry],
        timeZone: TimeZone
    ) -> Basis {
        let start = LocalDayRange(from: day, through: day, in: timeZone).instants.lowerBound
        let weekStart = LocalDayRange(from: day.adding(days: -7), through: day, in: timeZone).instants.lowerBound
        let before = rejections.filter { $0.happenedAt < start && $0.loggedAt < start }.map { rejection in
            var then = rejection
            if let recovered = then.recoveredAt, recovered >= start { then.recoveredAt = nil }
            return then
        }
        let week = before.filter { $0.happenedAt >= weekStart }
        let type = mostCommonType(of: week) ?? .other
        let score = ResilienceScore(
            rejections: before, checkIns: checkIns.filter { $0.day < day },
            challenges: challenges.filter { $0.day < day }, now: start.addingTimeInterval(-1), timeZone: timeZone)
        return Basis(type: type, count: week.filter { $0.type == type }.count, score: score.total, level: score.level)
    }
}
