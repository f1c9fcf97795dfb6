import Foundation
import HoorayKit

/// What happened, as far as the kind and the note tell: it picks the plan's title and steps and the
/// response template that fits, the way seed 002 (ResilientMe) matches its plans and templates to a
/// situation ("When someone stops responding completely", "When someone says they're not
/// interested").
///
/// A note that names no situation it knows gets the kind's neutral plan and no template, never a
/// guess: "She said she just wants to be friends" is a direct "no", not ghosting.
public struct RecoverySituation: Sendable, Hashable {
    /// The kind of rejection.
    public var type: RejectionType
    /// The template whose scenario the note matches; `nil` when the note names none.
    public var template: ResponseTemplate?

    /// The situation of a kind of rejection and its note.
    ///
    /// - Parameters:
    ///   - type: The kind of rejection.
    ///   - note: The user's note, if any; matched by words, whatever their case.
    public init(type: RejectionType, note: String?) {
        self.type = type
        let words = Self.normalized(note ?? "")
        let match = Self.clues.first { clue in
            clue.type == type && clue.phrases.contains { words.contains(" \($0) ") }
        }
        template = match.flatMap { clue in ResponseTemplates.all.first { $0.id == clue.templateID } }
    }

    /// The situation of a rejection, from its kind and note.
    public init(_ rejection: Rejection) {
        self.init(type: rejection.type, note: rejection.note)
    }

    /// Whether the note says the other person stopped answering: ghosted, no reply, left on read.
    public var isSilence: Bool {
        ["after-being-ghosted", "following-up-after-silence", "closing-the-loop"].contains(template?.id)
    }

    /// The template's number in `hooray recovery templates --type T`, counted from 1.
    public var templateNumber: Int? {
        guard let template else { return nil }
        return ResponseTemplates.templates(for: type).firstIndex(of: template).map { $0 + 1 }
    }

    /// Words of a note that name a situation, for one template each; the first that matches wins, so a
    /// more telling clue comes before a looser one.
    struct Clue: Sendable {
        var type: RejectionType
        var templateID: String
        var phrases: [String]
    }

    /// Phrases in the seed's situations: its scenarios ("stops responding", "not interested", "haven't
    /// heard back", "rejection email") and the words people use for them.
    static let silencePhrases = [
        "ghosted", "ghosting", "ghost", "ghosts", "no reply", "no replies", "no response", "no answer",
        "never replied", "never answered", "never responded", "never wrote back", "never texted back",
        "never called back", "stopped replying", "stopped responding", "stopped texting", "stopped answering",
        "left on read", "left me on read", "on read", "not replying", "not responding", "went silent",
        "went quiet", "radio silence", "disappeared", "vanished", "haven't heard", "havent heard",
        "have not heard", "never heard back", "didn't hear back", "didnt hear back", "no word", "unmatched",
        "stops responding", "stopped talking",
    ]

    static let clues: [Clue] = [
        Clue(type: .dating, templateID: "after-being-ghosted", phrases: silencePhrases),
        Clue(
            type: .dating, templateID: "after-direct-rejection",
            phrases: [
                "just friends", "be friends", "stay friends", "as friends", "as a friend", "friend zone",
                "friendzone", "friend zoned", "friendzoned", "not interested", "isn't interested",
                "wasn't interested", "not into me", "no spark", "no chemistry", "not feeling it", "said no",
                "turned me down", "rejected me", "broke up", "dumped", "not ready", "not looking",
                "doesn't see", "didn't see", "someone else", "not a match", "not my type", "not their type",
                "not his type", "not her type",
            ]),
        Clue(type: .job, templateID: "following-up-after-silence", phrases: silencePhrases),
        Clue(
            type: .job, templateID: "responding-to-rejection",
            phrases: [
                "rejection email", "rejection letter", "rejected", "rejection", "turned down", "said no",
                "not selected", "didn't get", "did not get", "didnt get", "other candidate", "another candidate",
                "other candidates", "unfortunately", "not moving forward", "won't be moving", "position filled",
                "not a fit", "no offer",
            ]),
        Clue(
            type: .social, templateID: "after-being-left-out",
            phrases: [
                "left out", "not invited", "wasn't invited", "weren't invited", "uninvited", "without me",
                "excluded", "didn't invite", "didnt invite", "no invite", "forgot me", "left behind",
            ]),
        Clue(
            type: .social, templateID: "after-an-awkward-moment",
            phrases: [
                "awkward", "embarrassing", "embarrassed", "cringe", "came out wrong", "didn't land",
                "misunderstood", "said something", "joke",
            ]),
        Clue(
            type: .academic, templateID: "asking-about-a-grade",
            phrases: ["grade", "grades", "graded", "mark", "marks", "marked", "failed", "exam", "test", "score"]),
        Clue(
            type: .academic, templateID: "after-a-program-rejection",
            phrases: [
                "program", "programme", "admission", "admissions", "accepted", "rejected", "rejection",
                "university", "college", "school", "scholarship", "phd", "master's", "masters", "waitlisted",
            ]),
        Clue(type: .other, templateID: "closing-the-loop", phrases: silencePhrases + ["still waiting", "waiting"]),
        Clue(
            type: .other, templateID: "accepting-a-no",
            phrases: ["said no", "turned down", "declined", "refused", "rejected", "denied", "not approved"]),
    ]

    /// The note in lower case, each run of anything but letters, digits and apostrophes one space,
    /// with a space at each end: phrases then match whole words only (`ghost` not in `ghostwriter`).
    static func normalized(_ note: String) -> String {
        var result = " "
        for character in note.lowercased().replacingOccurrences(of: "’", with: "'") {
            if character.isLetter || character.isNumber || character == "'" {
                result.append(character)
            } else if result.last != " " {
                result.append(" ")
            }
        }
        return result.last == " " ? result : result + " "
    }
}
