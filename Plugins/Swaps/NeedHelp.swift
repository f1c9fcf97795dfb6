import Foundation
import HoorayCommandLine
import HoorayKit
import HoorayText

/// "I need help": for a craving, the swaps that worked most often and 90 seconds of calm breathing
/// (the seed's emergency plan: "your top 3 swaps and a 90-second calming audio").
extension SwapsPlugin {
    /// `hooray swap help [--no-animation]`: the top three swaps, then the breathing guide for
    /// `hooray` to play in the terminal; with `--no-animation`, its steps in the text instead.
    func needHelpCommand(_ command: CommandInvocation, context: PluginContext) async throws -> CommandReply {
        let top = try await topSwaps(limit: 3, context: context)
        var lines = NeedHelpCopy.topSwapLines(top.map { (TerminalText.safe($0.text), $0.count) })
        if command.flag("no-animation") {
            lines += [NeedHelpCopy.breatheNow, "", NeedHelpCopy.breathingGuide.listing]
            return .text(lines.joined(separator: "\n"))
        }
        lines.append(NeedHelpCopy.breatheNow)
        return CommandReply(text: lines.joined(separator: "\n"), guide: NeedHelpCopy.breathingGuide)
    }

    /// The notification the **I need help** button shows: the user's top three swaps and one
    /// breathing line, with the command that guides the breathing. It stays until closed, as a plan
    /// to read at one's own pace.
    func needHelpNotice(context: PluginContext) async throws -> Notice {
        let top = try await topSwaps(limit: 3, context: context)
        let body = NeedHelpCopy.topSwapLines(top, indent: "") + [NeedHelpCopy.breathingLine]
        return Notice(
            title: NeedHelpCopy.title, body: body.joined(separator: "\n"), category: "hooray.swaps.need-help",
            timeout: .never, opens: .today)
    }
}

/// The words of "I need help", in the seed's calm voice: no pressure, no blame.
enum NeedHelpCopy {
    /// The notification's title.
    static let title = "I need help"

    /// The swap suggested when none is logged yet.
    static let exampleSwap = "Sparkling water instead of soda"

    /// Said right before the breathing guide starts, or its steps are listed.
    static let breatheNow = "Pick one for right now. First, let's breathe together for 90 seconds."

    /// The notification's breathing line: the pattern, and where the guided version is.
    static let breathingLine =
        "Breathe in for 4, hold for 4, out for 7. The craving can wait. `hooray swap help` guides you for 90 seconds."

    /// One round of calm breathing: in for 4 seconds, hold for 4, out for 7.
    static let round: [TerminalGuide.Step] = [
        .init(cue: "Breathe in slowly", seconds: 4),
        .init(cue: "Hold gently", seconds: 4),
        .init(cue: "Breathe out slowly", seconds: 7),
    ]

    /// Six rounds of ``round``: exactly 90 seconds.
    static let breathingGuide = TerminalGuide(
        title: "90 seconds of calm breathing",
        steps: Array(repeating: round, count: 6).flatMap { $0 },
        closing: "Well done. The craving has had time to pass; your swap is there when you're ready.")

    /// "Your top three swaps:" and one line per swap, most frequent first; fewer when there are
    /// fewer, and a kind line with one example when there are none.
    ///
    /// - Parameters:
    ///   - top: The swaps and how often each was made, most frequent first.
    ///   - indent: What comes before each numbered line.
    static func topSwapLines(_ top: [(text: String, count: Int)], indent: String = "  ") -> [String] {
        guard !top.isEmpty else {
            return ["No swaps logged yet, and that's perfectly okay. One to try: \(exampleSwap)."]
        }
        let heading = ["Your top swap:", "Your top two swaps:", "Your top three swaps:"]
        return [heading[min(top.count, heading.count) - 1]]
            + top.enumerated().map { index, swap in "\(indent)\(index + 1). \(swap.text) · \(times(swap.count))" }
    }

    /// `once`, `twice`, `5 times`.
    static func times(_ count: Int) -> String {
        switch count {
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }
}
