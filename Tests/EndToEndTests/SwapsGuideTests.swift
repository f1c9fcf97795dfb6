import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// "I need help" end to end: the real `hooray swap help` on a real pseudo-terminal plays the
/// breathing guide (its cue, a bar that fills, the time left, the cursor hidden), Ctrl-C or SIGTERM
/// leaves at once with the cursor and the terminal's modes as they were and exit 0, `TERM=dumb` gets
/// one line per step as it comes, and without a terminal (or with `--no-animation`) the steps are
/// printed at once and add up to 90 seconds.
@Suite(.timeLimit(.minutes(3)))
struct SwapsGuideTests {
    static let firstCue = "Breathe in slowly"
    static let stopped = "Stopped. Come back any time."
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let noSwapsYet =
        "No swaps logged yet, and that's perfectly okay. One to try: Sparkling water instead of soda."

    /// `hooray swap help ARGUMENTS…` on a new terminal, 100 columns wide.
    func onTerminal(
        _ fixture: HoorayFixture, term: String = "xterm", _ arguments: String...
    ) throws -> (terminal: PseudoTerminal, hooray: ChildProcess) {
        let terminal = try PseudoTerminal()
        let hooray = try ChildProcess(
            HoorayFixture.binDirectory + "/hooray", arguments: ["swap", "help"] + arguments,
            environment: fixture.environment(overriding: ["TERM": term]), terminal: terminal)
        return (terminal, hooray)
    }

    /// How many cells of the bar were filled in each frame drawn for `cue`, in order.
    static func fills(of cue: String, in screen: String) -> [Int] {
        screen.components(separatedBy: "\r").filter { $0.hasPrefix("  \(cue) ") }.map { frame in
            frame.filter { $0 == "█" }.count
        }
    }

    /// The `Cue — N s` lines printed, as (cue, seconds).
    static func steps(in text: String) -> [(cue: String, seconds: Int)] {
        text.split(whereSeparator: \.isNewline).compactMap { line in
            let parts = line.components(separatedBy: " — ")
            guard parts.count == 2, parts[1].hasSuffix(" s"), let seconds = Int(parts[1].dropLast(2)) else {
                return nil
            }
            return (parts[0], seconds)
        }
    }

    /// Waits until the bar of the first step has visibly filled: two frames with more cells.
    static func barMoves(_ hooray: ChildProcess) async -> Bool {
        await pollUntil(timeout: .seconds(20)) {
            let fills = fills(of: firstCue, in: hooray.standardOutput)
            return Set(fills).count >= 3 && fills.last! > fills.first! ? true : nil
        } ?? false
    }

    @Test func theGuidePlaysWithItsCueAndAFillingBarAndCtrlCLeavesAtOnceAndCleanly() async throws {
        try await HoorayFixture.with { fixture in
            let (terminal, hooray) = try onTerminal(fixture)
            #expect(await hooray.waitForOutput(containing: Self.firstCue, timeout: .seconds(30)))
            #expect(await Self.barMoves(hooray), "\(hooray.standardOutput)")
            let playing = hooray.standardOutput
            #expect(playing.contains(Self.noSwapsYet), "\(playing)")
            #expect(playing.contains("90 seconds of calm breathing"))
            #expect(playing.contains("Ctrl-C ends it whenever you like."))
            #expect(playing.contains("1:30 left"), "\(playing)")
            #expect(playing.contains(Self.hideCursor))
            #expect(!playing.contains(Self.showCursor))
            #expect(hooray.isRunning)

            try hooray.write(toStandardInput: "\u{03}")
            #expect(await hooray.waitForExit(timeout: .seconds(5)) == .exited(0))
            await hooray.waitForOutputToEnd(timeout: .seconds(5))
            let screen = hooray.standardOutput
            // The live line is cleared, the kind line takes its place, and the cursor comes back last.
            #expect(screen.contains("\r\u{1B}[K" + Self.stopped), "\(screen)")
            #expect(screen.hasSuffix(Self.showCursor), "\(screen.suffix(200))")
            #expect(!screen.contains("Well done"))
            #expect(try terminal.modes() == terminal.initialModes)
        }
    }

    @Test func withTheDaemonRunningHoorayPlaysTheGuideAndSIGTERMLeavesCleanlyToo() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let (terminal, hooray) = try onTerminal(fixture)
            #expect(await hooray.waitForOutput(containing: Self.firstCue, timeout: .seconds(30)))
            #expect(await Self.barMoves(hooray), "\(hooray.standardOutput)")

            hooray.send(SIGTERM)
            #expect(await hooray.waitForExit(timeout: .seconds(5)) == .exited(0))
            await hooray.waitForOutputToEnd(timeout: .seconds(5))
            #expect(hooray.standardOutput.contains(Self.stopped))
            #expect(hooray.standardOutput.hasSuffix(Self.showCursor))
            #expect(try terminal.modes() == terminal.initialModes)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aDumbTerminalGetsOneLinePerStepAsItComesAndNothingRedrawn() async throws {
        try await HoorayFixture.with { fixture in
            let (terminal, hooray) = try onTerminal(fixture, term: "dumb")
            #expect(await hooray.waitForOutput(containing: "Breathe in slowly — 4 s", timeout: .seconds(30)))
            // The next step waits for its time.
            #expect(await hooray.waitForOutput(containing: "Hold gently — 4 s", timeout: .seconds(20)))
            #expect(hooray.isRunning)

            try hooray.write(toStandardInput: "\u{03}")
            #expect(await hooray.waitForExit(timeout: .seconds(5)) == .exited(0))
            await hooray.waitForOutputToEnd(timeout: .seconds(5))
            let screen = hooray.standardOutput
            #expect(screen.contains(Self.stopped), "\(screen)")
            #expect(!screen.contains("\u{1B}"), "no escape sequences on a dumb terminal: \(screen)")
            #expect(!screen.contains("█"))
            #expect(try terminal.modes() == terminal.initialModes)
        }
    }

    @Test func withoutATerminalTheStepsArePrintedAtOnceAndAddUpToNinetySeconds() async throws {
        try await HoorayFixture.with { fixture in
            let started = ContinuousClock.now
            let output = try await fixture.hooray("swap", "help")
            #expect(output.status == .exited(0), "\(output.standardError)")
            #expect(ContinuousClock.now - started < .seconds(30), "the steps are listed, not waited through")
            let text = output.standardOutput
            #expect(text.contains(Self.noSwapsYet), "\(text)")
            let steps = Self.steps(in: text)
            #expect(steps.count == 18)
            #expect(steps.map(\.seconds).reduce(0, +) == 90)
            #expect(Array(steps.prefix(3).map(\.cue)) == ["Breathe in slowly", "Hold gently", "Breathe out slowly"])
            #expect(text.contains("In all: 90 s."))
            #expect(!text.contains("\u{1B}"))
            #expect(!text.contains(Self.stopped) && !text.contains("Ctrl-C"))
        }
    }

    @Test func noAnimationOnATerminalPrintsTheStepsAndPlaysNothing() async throws {
        try await HoorayFixture.with { fixture in
            let (terminal, hooray) = try onTerminal(fixture, "--no-animation")
            #expect(await hooray.waitForExit(timeout: .seconds(30)) == .exited(0))
            await hooray.waitForOutputToEnd(timeout: .seconds(5))
            let screen = hooray.standardOutput
            let steps = Self.steps(in: screen)
            #expect(steps.count == 18, "\(screen)")
            #expect(steps.map(\.seconds).reduce(0, +) == 90)
            #expect(!screen.contains(Self.hideCursor) && !screen.contains("Ctrl-C"), "\(screen)")
            #expect(try terminal.modes() == terminal.initialModes)
        }
    }
}
