import Foundation
import HooraySystemTesting
import Testing

/// The anonymous identity in the desktop's keyring: the real `hooray` and `hoorayd` against a real
/// GNOME Keyring on the test's private session bus, read back with `secret-tool`.
@Suite(.timeLimit(.minutes(3)))
struct KeyringIdentityTests {
    static let identityAttributes = ["xdg:schema": "org.hooray.Secret", "kind": "identity"]

    struct PrintedIdentity: Decodable {
        struct Store: Decodable {
            let kind: String
            let service: String?
            let path: String?
        }

        let userId: String
        let createdAt: String
        let store: Store
    }

    struct PrintedMoment: Decodable {
        let sync: String
        let syncError: String?
    }

    func keyring(for fixture: HoorayFixture) async throws -> KeyringDaemon {
        try await KeyringDaemon(
            busAddress: fixture.bus.address, home: fixture.home.path, dataHome: fixture.home.appending("data"))
    }

    func identity(_ fixture: HoorayFixture) async throws -> PrintedIdentity {
        let output = try await fixture.hooray("identity", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode(PrintedIdentity.self, from: Data(output.standardOutput.utf8))
    }

    var identityFile: (HoorayFixture) -> String { { $0.home.appending("data/hooray/identity") } }

    func aiConfig(_ ai: TestAIServer) -> String {
        """
        [ai]
        provider = "hooray"
        endpoint = "\(ai.endpoint("good").absoluteString)"
        timeout = "3s"
        connect_timeout = "2s"

        [plugins.wins]
        retry_first = "1s"
        retry_max = "2s"
        """
    }

    func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    @Test func aFirstRunKeepsTheIdentityInTheKeyringAndTheAIRequestCarriesIt() async throws {
        try await HoorayFixture.with { fixture in
            let keyring = try await keyring(for: fixture)
            let server = try await fixture.startServer()
            let ai = try await TestAIServer()
            try fixture.writeConfig(aiConfig(ai))

            let daemon = try await fixture.startDaemon()
            let made = try await identity(fixture)
            #expect(made.store.kind == "keyring")
            #expect(made.store.service == "GNOME Keyring")
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))
            let stored = try await keyring.search(attributes: Self.identityAttributes)
            #expect(stored.map(\.label) == ["Hooray anonymous id"])
            let secret = try await keyring.lookup(attributes: Self.identityAttributes)
            #expect(secret?.contains("user-id = \(made.userId)\n") == true)
            let text = try await fixture.hooray("identity")
            #expect(text.standardOutput.contains("Kept in: your keyring (GNOME Keyring), as “Hooray anonymous id”"))

            // The AI request carries the id kept in the keyring.
            #expect(try await fixture.hooray("win", "Watered the plants").status == .exited(0))
            // The praise reaches the screen (once, or twice when the AI's replaces the first in place).
            _ = try await server.waitForNotifications(count: 1, timeout: .seconds(15))
            let recorded = await pollUntil(timeout: .seconds(30), interval: .milliseconds(50)) {
                () -> RecordedAIRequest? in (try? ai.requests())?.first
            }
            let request = try #require(recorded)
            #expect(request.headers["x-user-id"] == made.userId)
            // `status` waits a second for the keyring; a busy computer can take longer, once.
            let status = await pollUntil(timeout: .seconds(30), interval: .milliseconds(200)) { () -> String? in
                let said = try? await fixture.hooray("status").standardOutput
                return said?.contains("Anonymous id: not known now") == true ? nil : said
            }
            #expect(
                status?.contains("Anonymous id: in your keyring (GNOME Keyring)") == true, "\(status ?? "no status")")

            await daemon.stop()
            await ai.stop()
            await keyring.stop()
        }
    }

    @Test func anIdentityFileFromBeforeMovesIntoTheKeyringWithTheSameUUID() async throws {
        try await HoorayFixture.with { fixture in
            // Before the keyring: the private file, as it always was.
            let before = try await identity(fixture)
            #expect(before.store.kind == "file")
            #expect(before.store.path == identityFile(fixture))
            let offline = try await fixture.hooray("identity")
            #expect(offline.standardOutput.contains("Kept in: \(identityFile(fixture))"))

            // A keyring appears: the same identity moves into it, and the file goes.
            let keyring = try await keyring(for: fixture)
            let after = try await identity(fixture)
            #expect(after.userId == before.userId)
            #expect(after.createdAt == before.createdAt)
            #expect(after.store.kind == "keyring")
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))
            let stored = try await keyring.lookup(attributes: Self.identityAttributes)
            #expect(stored?.contains("user-id = \(before.userId)\n") == true)
            #expect(try await identity(fixture).userId == before.userId)

            await keyring.stop()
        }
    }

    @Test func aLockedKeyringNeverMakesASecondIdentityAndAIRequestsWaitForTheUnlock() async throws {
        try await HoorayFixture.with { fixture in
            let keyring = try await keyring(for: fixture)
            let server = try await fixture.startServer()
            let ai = try await TestAIServer()
            try fixture.writeConfig(aiConfig(ai))
            let made = try await identity(fixture)
            try await keyring.lock()

            // Locked: no new identity, here or in the daemon, and the command says why.
            let refused = try await fixture.hooray("identity")
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("is locked"))
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))
            let daemon = try await fixture.startDaemon()

            // A win still gets its offline praise at once; its AI request waits for the identity.
            #expect(try await fixture.hooray("win", "Tidied the desk").status == .exited(0))
            let shown = try await server.waitForNotifications(count: 1, timeout: .seconds(15))
            #expect(shown.first?.summary == "Moment logged")
            let waiting = await pollUntil(timeout: .seconds(20)) { () -> PrintedMoment? in
                try? await moments(fixture).first { $0.syncError?.contains("locked") == true }
            }
            #expect(waiting?.sync == "pending", "the moment waits for the keyring")
            #expect(try ai.requests().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))

            // Unlocked: the request goes out, with the one identity.
            try await keyring.restartUnlocked()
            let synced = await pollUntil(timeout: .seconds(30)) { () -> Bool? in
                (try? await moments(fixture))?.allSatisfy { $0.sync == "synced" } == true ? true : nil
            }
            #expect(synced == true)
            #expect(try ai.requests().map { $0.headers["x-user-id"] } == [made.userId])
            #expect(try await keyring.search(attributes: Self.identityAttributes).count == 1)

            await daemon.stop()
            await ai.stop()
            await keyring.stop()
        }
    }

    @Test func deleteMyDataRemovesTheKeyringItem() async throws {
        try await HoorayFixture.with { fixture in
            let keyring = try await keyring(for: fixture)
            let made = try await identity(fixture)
            #expect(made.store.kind == "keyring")

            let deleted = try await fixture.hooray("delete-my-data", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(deleted.standardOutput.contains("and your anonymous id"))
            #expect(try await keyring.search(attributes: Self.identityAttributes).isEmpty)
            // The next one is a new identity, in the keyring again.
            let next = try await identity(fixture)
            #expect(next.userId != made.userId)
            #expect(next.store.kind == "keyring")

            await keyring.stop()
        }
    }

    @Test func switchingToTheFileNeverMakesASecondIdentityAndDeleteStillReachesTheKeyring() async throws {
        try await HoorayFixture.with { fixture in
            let keyring = try await keyring(for: fixture)
            let made = try await identity(fixture)
            #expect(made.store.kind == "keyring")

            try fixture.writeConfig("[identity]\nstore = \"file\"\n")
            let refused = try await fixture.hooray("identity")
            #expect(refused.status == .exited(1))
            #expect(refused.standardError.contains("would make a second one"))
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))

            let deleted = try await fixture.hooray("delete-my-data", "--yes")
            #expect(deleted.status == .exited(0), "\(deleted.standardError)")
            #expect(try await keyring.search(attributes: Self.identityAttributes).isEmpty)
            #expect(try await identity(fixture).store.kind == "file")

            await keyring.stop()
        }
    }

    @Test func badKeyringStatesAreExplainedAndNothingIsReplaced() async throws {
        try await HoorayFixture.with { fixture in

            // store = "keyring" with no Secret Service: refused, and no file instead.
            try fixture.writeConfig("[identity]\nstore = \"keyring\"\n")
            let none = try await fixture.hooray("identity")
            #expect(none.status == .exited(1))
            #expect(none.standardError.contains("no keyring answers"))
            #expect(!FileManager.default.fileExists(atPath: identityFile(fixture)))

            // An item that is not an identity is left alone.
            let keyring = try await keyring(for: fixture)
            try await keyring.store(
                label: "Hooray anonymous id", attributes: Self.identityAttributes, value: "not-a-uuid")
            let invalid = try await fixture.hooray("identity")
            #expect(invalid.status == .exited(1))
            #expect(invalid.standardError.contains("does not hold a Hooray identity"))
            #expect(invalid.standardError.contains("secret-tool clear xdg:schema org.hooray.Secret kind identity"))
            #expect(try await keyring.lookup(attributes: Self.identityAttributes) == "not-a-uuid")

            // Two items: neither is trusted, both stay.
            try await keyring.store(
                label: "Hooray anonymous id", attributes: Self.identityAttributes.merging(["copy": "2"]) { a, _ in a },
                value: "another")
            let two = try await fixture.hooray("identity")
            #expect(two.status == .exited(1))
            #expect(two.standardError.contains("holds 2 items"))
            #expect(try await keyring.search(attributes: Self.identityAttributes).count == 2)

            await keyring.stop()
        }
    }
}
