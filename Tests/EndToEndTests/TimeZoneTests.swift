import Foundation
import HooraySystemTesting
import Testing

/// The system's time zone changing under a running `hoorayd`.
@Suite(.timeLimit(.minutes(2)))
struct TimeZoneTests {
    struct NextEntry: Decodable {
        let id: String
        let due: Date
    }

    @Test func remindersWithoutAZoneFollowTheSystemZoneWhenItChanges() async throws {
        try await HoorayFixture.with { fixture in
            // The daemon's /etc/localtime stand-in, as `timedatectl set-timezone` would rewrite it.
            let zoneFolder = fixture.home.appending("zone")
            try FileManager.default.createDirectory(atPath: zoneFolder, withIntermediateDirectories: true)
            let localtime = zoneFolder + "/localtime"
            try FileManager.default.createSymbolicLink(
                atPath: localtime, withDestinationPath: "/usr/share/zoneinfo/UTC")
            try fixture.writeConfig(
                reminderTOML(title: "Stretch", body: "", at: "15:00")
                    + reminderTOML(title: "Call Tokyo", body: "", at: "09:00", extra: "zone = \"Asia/Tokyo\""))
            let daemon = try await fixture.startDaemon(environment: ["HOORAY_LOCALTIME": localtime], removing: ["TZ"])

            func dueHours() async throws -> [String: Int] {
                let output = try await fixture.hooray("next", "--json")
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let entries = (try? decoder.decode([NextEntry].self, from: Data(output.standardOutput.utf8))) ?? []
                var utc = Calendar(identifier: .gregorian)
                utc.timeZone = TimeZone(identifier: "UTC")!
                return Dictionary(uniqueKeysWithValues: entries.map { ($0.id, utc.component(.hour, from: $0.due)) })
            }
            #expect(try await dueHours() == ["stretch": 15, "call-tokyo": 0])

            // Replace the link the way tools do: a new link renamed over the old one.
            try FileManager.default.createSymbolicLink(
                atPath: zoneFolder + "/localtime.new", withDestinationPath: "/usr/share/zoneinfo/America/New_York")
            #expect(rename(zoneFolder + "/localtime.new", localtime) == 0)

            // 15:00 in New York is 20:00 UTC in November; the Tokyo reminder keeps its own zone.
            let moved = await pollUntil(timeout: .seconds(15)) { () -> [String: Int]? in
                let hours = try? await dueHours()
                return hours?["stretch"] == 20 ? hours : nil
            }
            #expect(moved == ["stretch": 20, "call-tokyo": 0])
            #expect(daemon.standardError.contains("to America/New_York; re-planning reminders"))
            await daemon.stop()
        }
    }
}
