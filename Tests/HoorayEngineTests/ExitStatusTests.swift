import HoorayDaemon
import HoorayEngine
import Testing

/// One table of exit codes: `hoorayd`'s are in it, and `hooray --help` prints it whole.
@Suite struct ExitStatusTests {
    @Test(arguments: [DaemonExit.ok, .failure, .cannotStart, .alreadyRunning, .badConfiguration])
    func everyCodeOfHooraydIsInTheTable(exit: DaemonExit) {
        #expect(ExitStatus(rawValue: exit.rawValue) != nil, "hoorayd exits \(exit.rawValue), which is not in the table")
    }

    /// The codes users and scripts rely on, as docs/commands.md documents them (sysexits.h values).
    @Test func theCodesAreTheDocumentedOnes() {
        #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 64, 69, 75, 78])
        #expect(ExitStatus.table.split(separator: "\n").first == "  0  done")
        #expect(ExitStatus.table.contains(" 64  usage: the command line was not understood"))
    }
}
