import Foundation
import HoorayKit
import Testing

@testable import RecoveryPlugin

/// The plan and template a rejection gets, picked by what its note says happened (seed 002's
/// situations), not by its kind alone.
@Suite struct SituationTests {
    static func situation(_ type: RejectionType, _ note: String?) -> RecoverySituation {
        RecoverySituation(type: type, note: note)
    }

    @Test("Item 5: a dating rejection that just wants to be friends gets the direct-no plan, not ghosting")
    func justFriendsIsADirectNo() {
        let friends = Self.situation(.dating, "She said she just wants to be friends")
        #expect(friends.template?.id == "after-direct-rejection")
        #expect(!friends.isSilence)
        #expect(!RecoveryCopy.title(for: friends).contains("Ghosted"))
        #expect(!RecoveryCopy.plan(for: friends).contains { $0.contains("ghost") })
        #expect(RecoveryCopy.encouragements(for: friends).allSatisfy { !$0.contains("communication style") })
        #expect(
            RecoveryCopy.templateLine(for: friends)
                == "Words for a reply, if you want one: After Direct Rejection (hooray recovery templates --type dating --number 2)"
        )
    }

    @Test(
        "Item 5: ghosted, no reply and left on read get the seed's ghosting plan",
        arguments: [
            "Ghosted after three dates", "No reply since Friday", "Left on read. Again.", "he STOPPED responding",
        ])
    func silenceIsGhosting(note: String) {
        let ghosted = Self.situation(.dating, note)
        #expect(ghosted.template?.id == "after-being-ghosted")
        #expect(RecoveryCopy.title(for: ghosted) == "Ghosted Again? You're Not Alone")
        #expect(RecoveryCopy.plan(for: ghosted).contains("Remember: 77% of Gen Z have ghosted someone"))
    }

    @Test("Item 5: a note that names no situation gets the kind's neutral plan and no template")
    func anUnknownSituationIsNeutral() {
        for note in [nil, "", "Coffee date went nowhere", "ghostwriter"] {
            let neutral = Self.situation(.dating, note)
            #expect(neutral.template == nil, "\(note ?? "nil")")
            #expect(RecoveryCopy.title(for: neutral) == "Dating Is Hard Sometimes. You're Not Alone")
            #expect(!RecoveryCopy.plan(for: neutral).contains { $0.contains("ghost") })
            #expect(
                RecoveryCopy.templateLine(for: neutral)
                    == "Words for a reply, if you want one: hooray recovery templates --type dating")
        }
    }

    @Test(
        "Item 5: every kind picks its template by the note",
        arguments: [
            (RejectionType.job, "Still haven't heard back after the interview", "following-up-after-silence"),
            (.job, "Rejection email this morning", "responding-to-rejection"),
            (.job, "They went with another candidate", "responding-to-rejection"),
            (.social, "Not invited to Sam's party", "after-being-left-out"),
            (.social, "That joke came out wrong", "after-an-awkward-moment"),
            (.academic, "Got a bad grade on the essay", "asking-about-a-grade"),
            (.academic, "The master's program said no", "after-a-program-rejection"),
            (.other, "Landlord declined the request", "accepting-a-no"),
            (.other, "No answer from the council", "closing-the-loop"),
        ])
    func eachKindPicksItsTemplate(type: RejectionType, note: String, template: String) {
        let picked = Self.situation(type, note)
        #expect(picked.template?.id == template)
        #expect(picked.template?.type == type)
    }

    @Test("Item 5: the logged text, the notification and the plan command show the same situation's plan")
    func theLoggedTextAndNotificationAgree() {
        let rejection = Rejection(
            type: .dating, impact: 6, note: "She said she just wants to be friends", happenedAt: Date(),
            loggedAt: Date(), timeZone: "UTC", encouragement: "Someone not choosing you is not a verdict on you.")
        let text = RecoveryPlugin.loggedText(for: rejection, color: false)
        let notice = RecoveryPlugin.loggedNotice(for: rejection)
        #expect(text.hasPrefix("💔 Not the Answer You Hoped For? You're Not Alone\n"))
        #expect(notice.title == "Not the Answer You Hoped For? You're Not Alone")
        for shown in [text, notice.body] {
            #expect(!shown.contains("77%"))
            #expect(shown.contains("Acknowledge the feeling without judgment"))
        }
        #expect(text.contains("After Direct Rejection"))
        #expect(RecoveryPlugin.planNotice(for: RecoverySituation(rejection)).title == notice.title)
    }
}
