import Foundation
import HoorayEngine
import HoorayKit
import HoorayKitTesting
import Testing

/// `PluginTestHarness.press(answer:)` refuses what the engine refuses, so that a plugin's unit
/// test cannot count on an answer `hooray act` never brings.
@Suite struct PluginTestHarnessAnswerTests {
    /// Remembers every press it is handed.
    actor Presses {
        var all: [InvokedAction] = []
        func add(_ action: InvokedAction) { all.append(action) }
    }

    struct AskingPlugin: HoorayPlugin {
        let presses: Presses
        var name: String { "asking" }
        var summary: String { "A button that asks, and one that does not." }
        func activate(context: PluginContext, configuration: NoConfiguration) async throws {}
        func actionInvoked(_ action: InvokedAction, context: PluginContext) async throws {
            await presses.add(action)
        }
    }

    static let notice = Notice(
        title: "Read tonight?",
        actions: [
            NoticeAction(id: "read", label: "I read", prompt: "What did you read?"),
            NoticeAction(id: "later", label: "Later"),
        ])

    @Test func anAnswerForAButtonThatAsksNothingIsRefusedAndThePluginIsNotCalled() async throws {
        let presses = Presses()
        let harness = PluginTestHarness(pluginName: "asking", now: Date(timeIntervalSince1970: 1_781_000_000))
        let refused = await #expect(throws: AnswerRefused.self) {
            try await harness.press(
                "later", on: Self.notice, from: nil, of: AskingPlugin(presses: presses), answer: "A book")
        }
        #expect(refused?.message.contains("“Later” asks no question, so it takes no answer") == true)
        // A button not on the notice asks nothing either.
        await #expect(throws: AnswerRefused.self) {
            try await harness.press(
                "elsewhere", on: Self.notice, from: nil, of: AskingPlugin(presses: presses), answer: "A book")
        }
        #expect(await presses.all.isEmpty)
    }

    @Test(arguments: ["Tea\u{1b}[D", "two\nlines", String(repeating: "a", count: ButtonAnswer.longest + 1)])
    func anAnswerWithAControlCharacterOrTooLongIsRefused(answer: String) async throws {
        let presses = Presses()
        let harness = PluginTestHarness(pluginName: "asking", now: Date(timeIntervalSince1970: 1_781_000_000))
        let refused = await #expect(throws: AnswerRefused.self) {
            try await harness.press(
                "read", on: Self.notice, from: nil, of: AskingPlugin(presses: presses), answer: answer)
        }
        #expect(refused?.message.hasPrefix("nothing was pressed: the answer ") == true, "\(refused?.message ?? "")")
        #expect(await presses.all.isEmpty)
    }

    @Test func aPlainAnswerAndNoAnswerReachThePlugin() async throws {
        let presses = Presses()
        let harness = PluginTestHarness(pluginName: "asking", now: Date(timeIntervalSince1970: 1_781_000_000))
        let plugin = AskingPlugin(presses: presses)
        try await harness.press("read", on: Self.notice, from: nil, of: plugin, answer: "Dune, chapter 3")
        try await harness.press("read", on: Self.notice, from: nil, of: plugin)
        try await harness.press("later", on: Self.notice, from: nil, of: plugin)
        #expect(await presses.all.map(\.answer) == ["Dune, chapter 3", nil, nil])
        #expect(await presses.all.map(\.actionID) == ["read", "read", "later"])
    }
}
