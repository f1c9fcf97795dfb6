import Foundation
import HoorayConfig
import HoorayKit
import RecoveryPlugin
import Testing

/// `[plugins.recovery]` as `hooray config check` reads it: each mistake at its own line, with the fix.
@Suite struct RecoverySectionTests {
    func check(_ section: String) throws -> [String] {
        let directory = try TemporaryDirectory()
        let file = directory.path + "/hooray.toml"
        try ("[plugins.recovery]\n" + section).write(toFile: file, atomically: true, encoding: .utf8)
        return ConfigLoader(paths: directory.paths, plugins: [RecoveryPlugin()]).check(onlyFile: file).diagnostics
            .map(\.description)
    }

    @Test func everyMistakeIsNamedAtItsLineWithTheFix() throws {
        let found = try check(
            """
            follow_up_min_impact = 0
            follow_up_after = "30s"
            checkin_at = "8pm"
            challenge_at = "9am"
            ai = "yes"
            """)
        #expect(found.count == 5, "\(found)")
        #expect(found.contains { $0.contains(":2:") && $0.contains("from 1 to 10") })
        #expect(found.contains { $0.contains(":3:") && $0.contains("1m") })
        #expect(found.contains { $0.contains(":4:") && $0.contains("HH:MM") })
        #expect(found.contains { $0.contains(":5:") && $0.contains("\"off\"") })
        #expect(found.contains { $0.contains(":6:") })
    }

    @Test func theRemindersCanBeTurnedOffAndMoved() throws {
        #expect(try check("checkin = false\nchallenge_at = \"off\"\ncheckin_at = \"21:30\"\n").isEmpty)
        #expect(try check("challenge_at = false\n").isEmpty)
        #expect(try check("follow_up_min_impact = 11\nfollow_up_after = \"12h\"\n").isEmpty)
        #expect(try check("folow_up_after = \"12h\"\n").contains { $0.contains("follow_up_after") })
    }
}
