import HoorayEngine
import Testing

/// One table of exit codes: `hoorayd`'s are in it, and `hooray --help` prints it whole.
@Suite struct ExitStatusTests {
    @Test(arguments: [DaemonExit.ok, .failure, .cannotStart, .alreadyRunning, .badConfiguration])
    func everyCodeOfHooraydIsInTheTable(exit: DaemonExit) {
        #expect(ExitStatus(rawValue: exit.rawValue) != nil, "hoorayd exits \(exit.rawValue), which is not in the table")
    }

    @Test func theTableListsEachCodeOnceWithItsMeaning() {
        let lines = ExitStatus.table.split(separator: "\n")
        #expect(lines.count == ExitStatus.allCases.count)
        for (line, status) in zip(lines, ExitStatus.allCases) {
            #expect(line.hasSuffix("  " + status.meaning))
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix(String(status.rawValue)))
        }
    }
}
