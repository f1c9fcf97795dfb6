import Foundation
import HoorayKit
import HoorayTesting
import Testing

@testable import WinsPlugin

/// Fuzz tests of `hooray win --ago`: whatever is typed is a time within the last 366 days, or a
/// refusal that quotes it; never a crash. A failure names ``FuzzInputs/seed`` and the input's index.
@Suite struct AgoFuzzTests {
    static let seed = FuzzInputs.seed

    @Test func agoIsWithinAYearOrRefusedByName() {
        let inputs = FuzzInputs.strings(
            from: ["5m", "2h", "3d", "1h30m", "90 min", "now", "just now", "2h ago", "0", " 10s "],
            units: ["s", "m", "h", "d", " ago", " min", ""], count: 4000, seed: Self.seed &+ 10)
        for (index, input) in inputs.enumerated() {
            let replay: Comment = "seed \(Self.seed), input #\(index): \(input.debugDescription)"
            do {
                let seconds = try MomentRules.parseAgo(input)
                #expect((0...MomentRules.maxAgo).contains(seconds), replay)
            } catch let error as PluginCommandError {
                #expect(error.message.hasPrefix("--ago"), replay)
                #expect(FuzzInputs.message(error.message, names: input), replay)
            } catch {
                Issue.record("not a PluginCommandError: \(error); \(replay)")
            }
        }
    }

    @Test(arguments: ["9223372036854775807m", "2562047788015216h", "106751991167301d", "1d9223372036854775807s"])
    func anAgoTooLongToCountIsRefusedNotTrapped(text: String) {
        let error = #expect(throws: PluginCommandError.self) { try MomentRules.parseAgo(text) }
        #expect(error?.message.contains("--ago \"\(text)\" is not a time") == true)
    }
}
