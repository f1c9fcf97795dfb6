import Foundation
import HoorayKit
import HoorayKitTesting
import Testing

/// A pool of `count` numbered phrases for every style and size.
private func numberedPhrases(_ count: Int) -> CelebrationPhrases {
    let lines = (1...count).map { "Phrase \($0)." }
    return CelebrationPhrases(pools: [
        "calm.small": lines, "calm.big": lines, "playful.small": lines, "playful.big": lines,
    ])
}

/// One phrase per pool, so that a notice's text is known in advance.
private let onePhrase = CelebrationPhrases(pools: [
    "calm.small": ["Nice choice."], "calm.big": ["Small steps, big wins."],
    "playful.small": ["Nice choice."], "playful.big": ["Small steps, big wins."],
])

/// Asserts that no phrase is one of the `memory` phrases before it.
private func expectNoRecentRepeats(
    _ picks: [String], memory: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    for (index, phrase) in picks.enumerated() {
        let before = picks[max(0, index - memory)..<index]
        #expect(!before.contains(phrase), "pick \(index) repeats \(phrase)", sourceLocation: sourceLocation)
    }
}

@Suite struct CelebrationPhraseTests {
    @Test(arguments: [2, 3, 10, 12, 40])
    func aPickNeverRepeatsOneOfTheLastFew(poolSize: Int) {
        let phrases = numberedPhrases(poolSize)
        let memory = CelebrationPhrases.memory(forPoolOf: poolSize)
        var random = SystemRandomNumberGenerator()
        var recent: [String] = []
        var picks: [String] = []

        for _ in 0..<2000 {
            let picked = phrases.pick(style: .calm, size: .small, avoiding: recent, using: &random)
            picks.append(picked.phrase)
            recent = picked.recent
        }

        #expect(memory == min(5, poolSize / 2))
        expectNoRecentRepeats(picks, memory: memory)
        // Still random: every phrase comes up.
        #expect(Set(picks).count == poolSize)
    }

    @Test func eachStyleAndSizeHasItsOwnPool() {
        let phrases = CelebrationPhrases(pools: [
            "calm.small": ["calm small"], "calm.big": ["calm big"],
            "playful.small": ["playful small"], "playful.big": ["playful big"],
        ])

        #expect(phrases.phrases(style: .calm, size: .small) == ["calm small"])
        #expect(phrases.phrases(style: .calm, size: .big) == ["calm big"])
        #expect(phrases.phrases(style: .playful, size: .small) == ["playful small"])
        #expect(phrases.phrases(style: .playful, size: .big) == ["playful big"])
    }

    @Test func aMissingOrEmptyPoolFallsBackToTheBuiltInPhrases() {
        let phrases = CelebrationPhrases(pools: ["calm.small": []])

        #expect(phrases.phrases(style: .calm, size: .small) == CelebrationPhrases.builtIn.pools["calm.small"])
        #expect(phrases.phrases(style: .playful, size: .big) == CelebrationPhrases.builtIn.pools["playful.big"])
        #expect(CelebrationPhrases.builtIn.pools["calm.small"]?.contains("Nice choice.") == true)
    }

    @Test func celebrationsThroughACenterDoNotRepeatTheLastFewEvenAfterARestart() async throws {
        let board = RecordingNoticeBoard()
        let memory = InMemoryPluginStore()
        let phrases = numberedPhrases(12)
        var lines: [String] = []

        // Two centers on the same memory: the daemon restarted in between.
        for _ in 0..<2 {
            let center = StandardCelebrationCenter(style: .calm, notices: board, memory: memory, phrases: phrases)
            for _ in 0..<150 {
                lines.append(try await center.celebrate(Celebration(size: .small, title: "Walked")).line)
            }
        }

        let bodies = await board.notices.map(\.body)
        #expect(bodies.count == 300)
        expectNoRecentRepeats(bodies, memory: 5)
        #expect(lines == bodies.map { "✓ Walked — \($0)" })
        let stored = try await memory.value(forKey: "recent.calm.small", as: [String].self)
        #expect(stored == Array(bodies.suffix(5)))
    }

    @Test func smallAndBigCelebrationsRememberSeparately() async throws {
        let memory = InMemoryPluginStore()
        let center = StandardCelebrationCenter(
            style: .playful, notices: RecordingNoticeBoard(), memory: memory, phrases: numberedPhrases(12))

        _ = try await center.celebrate(Celebration(size: .small, title: "Walked"))
        _ = try await center.celebrate(Celebration(size: .big, title: "Walked · 7 days"))

        #expect(try await memory.keys() == ["recent.playful.big", "recent.playful.small"])
        #expect(StandardCelebrationCenter.memoryKey(style: .playful, size: .big) == "recent.playful.big")
    }

    @Test(arguments: [CelebrationStyle.calm, .playful])
    func aPluginsOwnPhrasesAreTheOnlyOnesItsCelebrationsSayAndTheyDoNotRepeatTheLastOne(style: CelebrationStyle)
        async throws
    {
        let own = CelebrationPhrasePool(
            name: "swaps",
            phrases: [.calm: ["Calm one.", "Calm two.", "Calm three."], .playful: ["Play one.", "Play two."]])
        let memory = InMemoryPluginStore()
        let board = RecordingNoticeBoard()
        let center = StandardCelebrationCenter(style: style, notices: board, memory: memory, phrases: onePhrase)

        var phrases: [String] = []
        for _ in 0..<60 {
            phrases.append(await center.nextPhrase(for: Celebration(size: .small, title: "Swap", phrases: own)))
        }
        // The shared pool is left alone: its own memory is untouched, and its phrase is never said.
        _ = try await center.celebrate(Celebration(size: .small, title: "Read"))

        #expect(Set(phrases) == Set(own.phrases(for: style)))
        expectNoRecentRepeats(phrases, memory: 1)
        #expect(try await memory.keys() == ["recent.\(style.rawValue).small", "recent.swaps.\(style.rawValue).small"])
        #expect(await board.notices.map(\.body).last?.contains("Nice choice.") == true)
    }

    @Test func aStyleThePluginHasNoPhrasesForUsesTheSharedPool() async throws {
        let own = CelebrationPhrasePool(name: "swaps", phrases: [.calm: ["Swap complete. 🌿"]])
        let board = RecordingNoticeBoard()
        let center = StandardCelebrationCenter(style: .playful, notices: board, phrases: onePhrase)

        _ = try await center.celebrate(Celebration(size: .small, title: "Swap", phrases: own))
        _ = try await StandardCelebrationCenter(style: .calm, notices: board, phrases: onePhrase)
            .celebrate(Celebration(size: .small, title: "Swap", phrases: own))

        #expect(await board.notices.map(\.body) == ["✨ Nice choice. ✨", "Swap complete. 🌿"])
        #expect(center.style == .playful)
    }
}

@Suite struct CelebrationStyleTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        var style: CelebrationStyle
        var size: Celebration.Size
        var title: String
        var body: String
        var urgency: Notice.Urgency
        var sound: Notice.Sound
        var timeout: Notice.Timeout
        var category: String
        var line: String

        var testDescription: String { "\(style) \(size)" }
    }

    @Test(arguments: [
        Expected(
            style: .calm, size: .small, title: "Read 10 pages", body: "Nice choice.\nYour longest run yet.",
            urgency: .low, sound: .silent, timeout: .serverDefault, category: "hooray.celebration",
            line: "✓ Read 10 pages — Nice choice."),
        Expected(
            style: .calm, size: .big, title: "Read 10 pages", body: "Small steps, big wins.\nYour longest run yet.",
            urgency: .low, sound: .silent, timeout: .milliseconds(10_000), category: "hooray.celebration.big",
            line: "✓ Read 10 pages — Small steps, big wins."),
        Expected(
            style: .playful, size: .small, title: "✨ Read 10 pages", body: "✨ Nice choice. ✨\nYour longest run yet.",
            urgency: .normal, sound: .named("complete"), timeout: .milliseconds(10_000),
            category: "hooray.celebration", line: "✨ Read 10 pages — Nice choice."),
        Expected(
            style: .playful, size: .big, title: "🎉 Read 10 pages",
            body: "🎊✨ Small steps, big wins. ✨🎊\nYour longest run yet.", urgency: .normal,
            sound: .named("complete"), timeout: .milliseconds(15_000), category: "hooray.celebration.big",
            line: "🎉 Read 10 pages — Small steps, big wins."),
    ])
    func eachStyleAndSizeHasItsOwnNotice(expected: Expected) async throws {
        let board = RecordingNoticeBoard()
        let center = StandardCelebrationCenter(style: expected.style, notices: board, phrases: onePhrase)

        let outcome = try await center.celebrate(
            Celebration(size: expected.size, title: "Read 10 pages", detail: "Your longest run yet."))

        let notice = try #require(await board.notices.first)
        #expect(await board.notices.count == 1)
        #expect(outcome == .shown(NoticeID(rawValue: 1), line: expected.line))
        #expect(notice.title == expected.title)
        #expect(notice.body == expected.body)
        #expect(notice.urgency == expected.urgency)
        #expect(notice.sound == expected.sound)
        #expect(notice.timeout == expected.timeout)
        #expect(notice.category == expected.category)
        #expect(notice.actions.isEmpty)
    }

    @Test func withoutADetailTheBodyIsThePhraseAlone() async throws {
        let board = RecordingNoticeBoard()
        let center = StandardCelebrationCenter(style: .calm, notices: board, phrases: onePhrase)

        _ = try await center.celebrate(Celebration(size: .small, title: "Read 10 pages"))

        #expect(await board.notices.map(\.body) == ["Nice choice."])
    }

    @Test(arguments: [
        (Celebration(size: .small, title: "Read 10 pages · 7 days"), "✓ Read 10 pages · 7 days"),
        (
            Celebration(size: .big, title: "Read 10 pages · 30 days", detail: "Your longest run yet."),
            "✓ Read 10 pages · 30 days — Your longest run yet."
        ),
    ])
    func theOffStylePostsNothingAndGivesAQuietLine(celebration: Celebration, line: String) async throws {
        let board = RecordingNoticeBoard()
        let memory = InMemoryPluginStore()
        let center = StandardCelebrationCenter(style: .off, notices: board, memory: memory)

        let outcome = try await center.celebrate(celebration)

        #expect(outcome == .quiet(line: line))
        #expect(outcome.line == line)
        #expect(await board.notices.isEmpty)
        #expect(try await memory.keys().isEmpty)
        #expect(CelebrationStyle.off.notice(for: celebration, phrase: "Nice choice.") == nil)
    }

    @Test(arguments: CelebrationStyle.allCases)
    func theHarnessCelebratesInItsStyleAndRecordsIt(style: CelebrationStyle) async throws {
        let harness = PluginTestHarness(
            pluginName: "habits", now: Date(timeIntervalSince1970: 0), celebrationStyle: style,
            celebrationPhrases: onePhrase)
        let celebration = Celebration(size: .big, title: "Read 10 pages · 7 days")

        let outcome = try await harness.context.celebrations.celebrate(celebration)

        #expect(await harness.celebrations.celebrations == [celebration])
        #expect(await harness.celebrations.outcomes == [outcome])
        #expect(
            await harness.notices.notices
                == [style.notice(for: celebration, phrase: "Small steps, big wins.")].compactMap { $0 })
        #expect(harness.celebrations.style == style)
    }
}
