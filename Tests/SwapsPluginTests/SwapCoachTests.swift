import Foundation
import HoorayCalendar
import HoorayCommandLine
import HoorayKit
import HoorayKitTesting
import HoorayMessages
import Testing

@testable import SwapsPlugin

/// The swap coach's own parts: what the words suggest (the seed's intent detection), the built-in
/// coach's answers with the user's own swaps, the context an AI service is told, and the turns kept.
@Suite struct SwapCoachTests {
    /// Friday 13 March 2026, 20:00 UTC.
    static let now = Date(timeIntervalSince1970: 1_773_432_000)
    static let shameWords = ["missed", "failed", "lazy", "should have", "weight", "calorie", "fat"]

    let harness = PluginTestHarness(pluginName: "swaps", now: Self.now)

    @Test(arguments: [
        ("I really want chocolate right now", CoachIntent.craving),
        ("Could murder a pizza", .craving),
        ("need something sweet", .craving),
        ("Ice-cream is calling me", .craving),
        ("I'm so stressed", .stress),
        ("work is overwhelming and I'm anxious", .stress),
        ("So bored, nothing to do", .boredom),
        ("restless evening", .boredom),
        ("I'm exhausted after a long day", .tiredness),
        ("no energy at all", .tiredness),
        ("Hello there", .general),
        ("sweetheart called", .general),
        ("I'm stressed and I want chips", .craving),
    ])
    func wordsSuggestAnIntent(text: String, intent: CoachIntent) {
        #expect(CoachIntent.detect(in: text) == intent)
    }

    @Test func harmIsRecognisedAndOrdinaryWordsAreNot() {
        for text in [
            "I want to hurt myself", "thinking about suicide", "I don't want to live", "self-harm again",
            "I feel like I could end it all", "I’d rather kill myself than go",
        ] {
            #expect(CoachIntent.suggestsHarm(text), "\(text)")
        }
        for text in ["this craving is killing me", "I hurt my knee", "dying for a coffee", "I want chocolate"] {
            #expect(!CoachIntent.suggestsHarm(text), "\(text)")
        }
    }

    func context(top: [String] = [], prep: [String] = []) -> CoachContext {
        CoachContext(
            today: LocalDate(year: 2026, month: 3, day: 13)!, time: "20:00", partOfDay: "evening",
            topSwaps: top.map { .init(text: $0, count: 2) }, preparedForTomorrow: prep)
    }

    @Test func theBuiltInCoachAnswersFromItsPoolWithOneOfTheUsersOwnSwaps() {
        let top = ["Sparkling water instead of soda", "Fruit for dessert", "Tea instead of wine"]
        let pools = MessagePools.coachReplies
        for intent in CoachIntent.allCases {
            #expect(pools[intent.rawValue]?.isEmpty == false, "\(intent) has answers")
        }
        for turn in 0..<6 {
            let answer = OfflineCoach.answer(
                to: "I really want chocolate right now", context: context(top: top), turn: turn)
            #expect(answer.intent == .craving)
            #expect(top.contains(answer.swap))
            #expect(
                pools["craving"]!.contains { $0.replacingOccurrences(of: "{swap}", with: answer.swap) == answer.text })
            #expect(!Self.shameWords.contains { answer.text.lowercased().contains($0) }, "\(answer.text)")
        }
        // The same words at the same turn give the same answer; turns vary the swap named.
        let first = OfflineCoach.answer(to: "I'm so stressed", context: context(top: top), turn: 0)
        #expect(first == OfflineCoach.answer(to: "I'm so stressed", context: context(top: top), turn: 0))
        #expect(
            Set((0..<3).map { OfflineCoach.answer(to: "hi", context: context(top: top), turn: $0).swap }).count == 3)
        // With no swaps yet, the prep, then the example.
        #expect(
            OfflineCoach.answer(to: "chips!", context: context(prep: ["Walk after lunch"]), turn: 0).swap
                == "Walk after lunch")
        #expect(OfflineCoach.answer(to: "chips!", context: context(), turn: 0).swap == NeedHelpCopy.exampleSwap)
        #expect(OfflineCoach.offersBreathing(.craving) && OfflineCoach.offersBreathing(.stress))
        #expect(!OfflineCoach.offersBreathing(.boredom))
    }

    @Test func theContextHoldsTheSwapsStreakAndPrepAndTheLatestConversation() async throws {
        let plugin = SwapsPlugin()
        let zone = TimeZone(identifier: "UTC")!
        let today = LocalDate(instant: Self.now, in: zone)
        let book = harness.context.records(of: Swap.self)
        try await book.insert(
            Swap(text: "Tea instead of wine", day: today.adding(days: -1), loggedAt: Self.now - 86400))
        try await book.insert(Swap(text: "Sparkling water instead of soda", day: today, loggedAt: Self.now - 60))
        try await harness.context.records(of: Prep.self).insert(
            Prep(day: today.adding(days: 1), items: ["Oatmeal instead of a pastry"], at: Self.now))
        let environment = CommandEnvironment(timeZoneIdentifier: "UTC")
        let conversation = UUID()
        for said in ["first", "second"] {
            let reply = try await plugin.run(
                CommandInvocation(
                    command: "coach-save",
                    values: [
                        "conversation": [conversation.uuidString], "said": [said], "answer": ["answer to \(said)"],
                        "voice": ["built-in"],
                    ], environment: environment), context: harness.context, configuration: .init())
            harness.clock.advance(by: 30)
            #expect(reply.json?["conversation"] == .string(conversation.uuidString.lowercased()))
        }
        harness.clock.set(to: Self.now)
        let reply = try await plugin.run(
            CommandInvocation(command: "coach-context", json: true, environment: environment), context: harness.context,
            configuration: .init())
        let coach = try #require(try reply.json?.decode(CoachContext.self))
        #expect(coach.time == "20:00" && coach.partOfDay == "evening")
        #expect(coach.swapsToday == ["Sparkling water instead of soda"])
        #expect(coach.recentSwaps == [.init(day: today.adding(days: -1), text: "Tea instead of wine")])
        #expect(coach.streak == 2)
        #expect(coach.topSwaps.map(\.text) == ["Sparkling water instead of soda", "Tea instead of wine"])
        #expect(coach.preparedForTomorrow == ["Oatmeal instead of a pastry"])
        #expect(coach.turns.map(\.said) == ["first", "second"])
        #expect(coach.promptText.contains("Right now it is evening (20:00) on Friday."))
        #expect(coach.promptText.contains("Prepared tonight for tomorrow: “Oatmeal instead of a pastry”."))
        // Talking with the coach is not a first use: it starts no reminder and shows no welcome.
        #expect(try await harness.context.storage.value(forKey: RecurringNotices.startedKey, as: Bool.self) == nil)
    }

    @Test(arguments: [
        (["said": ["hi"], "answer": ["x"]], "--conversation"),
        (["conversation": [UUID().uuidString], "said": ["  "], "answer": ["x"]], "--said"),
        (
            ["conversation": [UUID().uuidString], "said": [String(repeating: "a", count: 2001)], "answer": ["x"]],
            "--said"
        ),
        (["conversation": [UUID().uuidString], "said": ["hi"], "answer": ["bad \u{1B}[31m"]], "--answer"),
        (["conversation": [UUID().uuidString], "said": ["hi"], "answer": ["x"], "voice": ["robot"]], "--voice"),
    ])
    func aTurnThatCannotBeKeptIsRefusedByName(values: [String: [String]], option: String) async throws {
        let error = await #expect(throws: PluginCommandError.self) {
            _ = try await SwapsPlugin().run(
                CommandInvocation(command: "coach-save", values: values), context: harness.context,
                configuration: .init())
        }
        #expect(error?.kind == .invalidValue(option: option), "\(String(describing: error))")
        #expect(try await harness.context.records(of: CoachTurn.self).all().isEmpty)
    }
}
