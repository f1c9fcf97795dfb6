import Foundation
import GRDB
import HoorayKit
import HoorayStorage
import Testing

@Suite struct DeliveryHandleTests {
    @Test func aNotificationShownBeforeChannelsExistedIsStillReplacedInPlaceAfterTheUpgrade() async throws {
        // Tests/HoorayStorageTests/this file → Tests/Fixtures/databases.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/databases/hooray-v2.sqlite").path
        let directory =
            FileManager.default.temporaryDirectory.appendingPathComponent("hooray-handles-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture, toPath: directory + "/hooray.sqlite")
        // An earlier hoorayd showed notice 1 as the server's notification 42.
        let earlier = try DatabaseQueue(path: directory + "/hooray.sqlite")
        try await earlier.write { db in
            try db.execute(sql: "UPDATE notice SET state = 'delivered', serverID = 42, deliveredAt = 0 WHERE id = 1")
        }
        try earlier.close()

        let database = try HoorayDatabase(path: directory + "/hooray.sqlite")
        let id = NoticeID(rawValue: 1)
        let shown = try #require(try await database.notice(id))
        #expect(shown.handles == ["libnotify": "42"])
        #expect(try await database.notice(NoticeID(rawValue: 2))?.handles == [:])
        // Updated now, it goes back to the queue with the handle, to replace notification 42.
        try await database.updateNotice(id, plugin: shown.plugin, to: Notice(title: "Updated"))
        let pending = try await database.pendingNotices().first { $0.id == id }
        #expect(pending?.handles == ["libnotify": "42"])
    }

    @Test func eachChannelKeepsItsOwnHandleAndALaterDeliveryReplacesOnlyTheOnesItGot() async throws {
        let (database, directory) = try temporaryDatabase()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await database.insertNotice(Notice(title: "Hello"), plugin: "wins", now: t0)
        let first = try #require(try await database.markSending(id))
        #expect(
            try await database.markDelivered(
                id, handles: ["libnotify": "7", "notebook": "page-1"], now: t0, revision: first.revision))
        try await database.updateNotice(id, plugin: "wins", to: Notice(title: "Hello again"))
        let second = try #require(try await database.markSending(id))
        #expect(second.handles == ["libnotify": "7", "notebook": "page-1"])
        #expect(
            try await database.markDelivered(
                id, handles: ["libnotify": "8", "notebook": "page-1"], now: t0, revision: second.revision))
        #expect(try await database.notice(id)?.handles == ["libnotify": "8", "notebook": "page-1"])
    }
}
