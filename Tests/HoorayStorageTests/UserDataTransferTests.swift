import Foundation
import HoorayCalendar
import HoorayKit
import HoorayStorage
import Testing

/// What counts as the user's data, and how an import compares with what is stored.
@Suite struct UserDataTransferTests {
    func record(_ id: String, _ json: String) -> StoredRecord {
        StoredRecord(
            kind: "walk", id: id, date: .day(LocalDate(year: 2026, month: 11, day: 20)!), data: Data(json.utf8))
    }

    @Test func hooraysOwnMemoryIsNotTheUsersData() async throws {
        let (database, _) = try temporaryDatabase()
        try await database.setPluginValue(Data("[1]".utf8), plugin: "hooray.celebrations", key: "recent")
        try await database.setPluginValue(Data("true".utf8), plugin: "walks", key: "welcomed")
        try await database.insertRecord(record("a", #"{"km":3}"#), plugin: "walks")
        let data = try await database.userData()
        #expect(Array(data.plugins.keys) == ["walks"])
        #expect(data.plugins["walks"]?.records.map(\.id) == ["a"])
        #expect(data.plugins["walks"]?.values.map(\.key) == ["welcomed"])
    }

    @Test func aPreviewWritesNothingAndAnImportSkipsTheSameAndKeepsWhatDiffers() async throws {
        let (database, _) = try temporaryDatabase()
        // Stored by the plugin with its own key order: the same content as the file's.
        try await database.insertRecord(record("a", #"{"km":3,"by":"foot"}"#), plugin: "walks")
        try await database.insertRecord(record("b", #"{"km":5}"#), plugin: "walks")
        let file = UserData(plugins: [
            "walks": UserData.Plugin(
                records: [record("a", #"{"by":"foot","km":3}"#), record("b", #"{"km":6}"#), record("c", #"{"km":1}"#)],
                values: [StoredValue(key: "welcomed", data: Data("true".utf8))])
        ])
        let preview = try await database.importUserData(file, apply: false)
        #expect(preview.map(\.added) == [1, 1])
        #expect(preview.first?.unchanged == 1)
        #expect(preview.first?.conflicts == ["b"])
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "c") == nil)
        #expect(try await database.pluginValue(plugin: "walks", key: "welcomed") == nil)

        _ = try await database.importUserData(file, apply: true)
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "c") != nil)
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "b")?.data == Data(#"{"km":5}"#.utf8))
        let again = try await database.importUserData(file, apply: true)
        #expect(again.map(\.added) == [0, 0])

        _ = try await database.importUserData(file, apply: true, replace: true)
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "b")?.data == Data(#"{"km":6}"#.utf8))
    }

    @Test func whatTheCallerSaysToOverwriteIsUpdatedNotAConflict() async throws {
        let (database, _) = try temporaryDatabase()
        // A plugin wrote its own bookkeeping again (after delete-my-data, say), and a merged record differs.
        try await database.setPluginValue(Data(#""2026-11-24""#.utf8), plugin: "walks", key: "anchor.park")
        try await database.setPluginValue(Data("7".utf8), plugin: "walks", key: "counter")
        try await database.insertRecord(record("a", #"{"km":3}"#), plugin: "walks")
        try await database.insertRecord(record("b", #"{"km":5}"#), plugin: "walks")
        let file = UserData(plugins: [
            "walks": UserData.Plugin(
                records: [record("a", #"{"km":4}"#), record("b", #"{"km":6}"#)],
                values: [
                    StoredValue(key: "anchor.park", data: Data(#""2026-11-01""#.utf8)),
                    StoredValue(key: "counter", data: Data("3".utf8)),
                ])
        ])
        let overwrite: @Sendable (String, String?, String) -> Bool = { _, kind, id in
            kind == nil ? id.hasPrefix("anchor.") : id == "a"
        }
        let preview = try await database.importUserData(file, apply: false, overwrite: overwrite)
        #expect(preview.map(\.updated) == [1, 1])
        #expect(preview.map(\.conflicts) == [["b"], ["counter"]])
        #expect(try await database.pluginValue(plugin: "walks", key: "anchor.park") == Data(#""2026-11-24""#.utf8))

        _ = try await database.importUserData(file, apply: true, overwrite: overwrite)
        #expect(try await database.pluginValue(plugin: "walks", key: "anchor.park") == Data(#""2026-11-01""#.utf8))
        #expect(try await database.pluginValue(plugin: "walks", key: "counter") == Data("7".utf8), "yours is kept")
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "a")?.data == Data(#"{"km":4}"#.utf8))
        #expect(try await database.record(plugin: "walks", kind: "walk", id: "b")?.data == Data(#"{"km":5}"#.utf8))
        let again = try await database.importUserData(file, apply: true, overwrite: overwrite)
        #expect(again.map(\.updated) == [0, 0])
        #expect(again.map(\.unchanged) == [1, 1])
    }
}
