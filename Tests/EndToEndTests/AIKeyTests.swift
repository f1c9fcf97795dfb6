import Foundation
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `hooray ai set-key` and `forget-key` end to end: the real binaries, a real GNOME Keyring on the
/// fixture's bus (its keyrings in the fixture's home), and a loopback AI service that records the
/// `Authorization` header it gets.
@Suite(.timeLimit(.minutes(5)))
struct AIKeyTests {
    /// A moment as `hooray moments --json` prints it.
    struct PrintedMoment: Decodable {
        let text: String
        let sync: String
        let syncError: String?
    }

    static let openAIAttributes = ["xdg:schema": "org.hooray.Secret", "kind": "ai-key", "provider": "openai"]

    /// A key no other test uses, so finding it anywhere means this test put it there.
    static func makeKey() -> String {
        "sk-hooray-e2e-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// The `[ai]` section taking the key from the keyring, at trace level so any leak would reach the log.
    static func config(endpoint: URL, apiKey: String = "api_key = \"keyring\"") -> String {
        """
        [log]
        level = "trace"

        [ai]
        provider = "openai"
        endpoint = "\(endpoint.absoluteString)"
        model = "test-model"
        \(apiKey)
        timeout = "3s"
        connect_timeout = "2s"

        [plugins.wins]
        retry_first = "1s"
        retry_max = "2s"
        """
    }

    /// Starts GNOME Keyring on the fixture's bus, keeping its files in the fixture's home and runtime folder.
    static func startKeyring(_ fixture: HoorayFixture) async throws -> KeyringDaemon {
        try await KeyringDaemon(
            busAddress: fixture.bus.address, home: fixture.home.path, dataHome: fixture.home.appending("data"),
            runtimeDirectory: fixture.home.appending("runtime"))
    }

    /// Runs `body` with a fresh fixture, GNOME Keyring on its bus and a loopback AI service, and
    /// stops them all afterwards, also when it throws.
    static func withKeyring(
        _ body: (HoorayFixture, KeyringDaemon, TestAIServer) async throws -> Void
    ) async throws {
        let fixture = try await HoorayFixture()
        var keyring: KeyringDaemon?
        var ai: TestAIServer?
        func stopAll() async {
            await ai?.stop()
            await keyring?.stop()
            await fixture.tearDown()
        }
        do {
            keyring = try await startKeyring(fixture)
            ai = try await TestAIServer()
            try await body(fixture, keyring!, ai!)
        } catch {
            await stopAll()
            throw error
        }
        await stopAll()
    }

    static func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    /// Waits until the moment with this text satisfies `condition`.
    static func waitForMoment(
        _ fixture: HoorayFixture, text: String, timeout: Duration = .seconds(30),
        _ condition: @escaping (PrintedMoment) -> Bool
    ) async -> PrintedMoment? {
        await pollUntil(timeout: timeout, interval: .milliseconds(200)) { () -> PrintedMoment? in
            guard let moment = try? await moments(fixture).first(where: { $0.text == text }), condition(moment)
            else { return nil }
            return moment
        }
    }

    /// Every regular file under `root`, recursively, without following links; sockets and pipes are skipped.
    static func regularFiles(under root: String) -> [String] {
        var found: [String] = []
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            let path = (root as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: found.append(path)
            case S_IFDIR: found += regularFiles(under: path)
            default: break
            }
        }
        return found
    }

    /// The files among `files` whose bytes contain `needle`.
    static func files(_ files: [String], containing needle: String) -> [String] {
        let bytes = Data(needle.utf8)
        return files.filter { FileManager.default.contents(atPath: $0)?.range(of: bytes) != nil }
    }

    @Test func aStoredKeyIsSentWithRequestsAndWrittenNowhere() async throws {
        try await Self.withKeyring { fixture, keyring, ai in
            let server = try await fixture.startServer()
            let key = Self.makeKey()
            try fixture.writeConfig(Self.config(endpoint: ai.endpoint("good")))

            // Given a key stored with `hooray ai set-key` from standard input,
            let stored = try await fixture.hooray(
                arguments: ["ai", "set-key", "--provider", "openai"], input: key + "\n")
            #expect(stored.status == .exited(0), "\(stored.standardError)")
            #expect(
                stored.standardOutput.contains(
                    "Stored the openai key in GNOME Keyring as “Hooray AI key (openai)”.\n"
                        + "AI requests to openai use it from now on"))
            #expect(try await keyring.lookup(attributes: Self.openAIAttributes) == key)

            // when a win asks for AI praise,
            let daemon = try await fixture.startDaemon()
            let win = try await fixture.hooray("win", "Watered the plants")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let synced = await Self.waitForMoment(fixture, text: "Watered the plants") { $0.sync == "synced" }
            #expect(synced != nil, "\(daemon.standardError)")

            // then the request carries the key,
            let request = try #require(try ai.requests().first)
            #expect(request.headers["authorization"] == "Bearer \(key)")
            // and no file in the home or runtime folder holds it (the keyring's own file is encrypted),
            // nor the daemon's log, nor anything the CLI printed.
            let searched = Self.regularFiles(under: fixture.home.path)
            #expect(searched.contains { $0.hasSuffix("/data/keyrings/login.keyring") }, "\(searched)")
            #expect(searched.contains { $0.hasSuffix("/data/hooray/hooray.sqlite") }, "\(searched)")
            #expect(searched.contains { $0.hasPrefix(fixture.home.appending("runtime")) }, "\(searched)")
            #expect(Self.files(searched, containing: key) == [])
            #expect(!daemon.standardError.contains(key))
            #expect(!daemon.standardError.contains(String(key.suffix(16))))
            #expect(!(stored.standardOutput + stored.standardError + win.standardOutput).contains(key))

            // When the key is forgotten, the next win's request waits with the reason, and nothing is sent.
            let forgot = try await fixture.hooray("ai", "forget-key", "--provider", "openai")
            #expect(forgot.status == .exited(0), "\(forgot.standardError)")
            #expect(
                forgot.standardOutput.hasPrefix("Removed the openai key (“Hooray AI key (openai)”) from GNOME Keyring.")
            )
            #expect(try await keyring.lookup(attributes: Self.openAIAttributes) == nil)
            let again = try await fixture.hooray("ai", "forget-key", "--provider", "openai")
            #expect(again.status == .exited(0))
            #expect(again.standardOutput.hasPrefix("No openai key was stored in GNOME Keyring"))

            _ = try await fixture.hooray("win", "Called a friend")
            let waiting = await Self.waitForMoment(fixture, text: "Called a friend") { $0.syncError != nil }
            #expect(waiting?.sync == "pending")
            #expect(
                waiting?.syncError?.contains(
                    "no AI key is stored in your keyring for openai; run `hooray ai set-key`") == true,
                "\(String(describing: waiting?.syncError))")
            #expect(try ai.requests().count == 1)

            await daemon.stop()
            await server.stop()
        }
    }

    @Test func aLockedKeyringKeepsMomentsWaitingUntilItIsUnlocked() async throws {
        try await Self.withKeyring { fixture, keyring, ai in
            let key = Self.makeKey()
            // No api_key setting: a stored key is used all the same.
            try fixture.writeConfig(Self.config(endpoint: ai.endpoint("good"), apiKey: ""))
            let stored = try await fixture.hooray(arguments: ["ai", "set-key"], input: key)
            #expect(stored.status == .exited(0), "\(stored.standardError)")
            // hoorayd reads the anonymous id (also kept in the keyring) as it starts, while unlocked;
            // the key is read at each request.
            let daemon = try await fixture.startDaemon()
            #expect(
                await daemon.waitForOutput(
                    containing: "the anonymous id is kept in your keyring", in: .standardError, timeout: .seconds(15)))
            try await keyring.lock()

            // Storing into a locked keyring without a terminal is refused with exit 75 and the fix.
            let refused = try await fixture.hooray(arguments: ["ai", "set-key"], input: Self.makeKey())
            #expect(refused.status == .exited(75))
            #expect(refused.standardError.contains("is locked, so nothing was stored. Unlock it"))

            _ = try await fixture.hooray("win", "Finished the report")
            let waiting = await Self.waitForMoment(fixture, text: "Finished the report") { $0.syncError != nil }
            #expect(waiting?.sync == "pending")
            #expect(waiting?.syncError?.contains("your keyring is locked") == true, "\(String(describing: waiting))")
            #expect(try ai.requests().isEmpty, "no request goes out without the stored key")

            // Once it is unlocked, the retries send the key. (The test's keyring is unlocked by starting
            // a new keyring daemon, which answers for a moment before its collection is loaded: a retry
            // in that moment finds no key. Only the requests made once the key is readable count.)
            try await keyring.restartUnlocked()
            let readable = await pollUntil(timeout: .seconds(20), interval: .milliseconds(50)) {
                try? await keyring.lookup(attributes: Self.openAIAttributes) == key ? true : nil
            }
            #expect(readable == true)
            let before = (try? ai.requests().count) ?? 0
            _ = try await fixture.hooray("win", "Sent the invoice")
            // The retry after a locked keyring waits its turn; on a loaded machine that is well past 30 s.
            for text in ["Finished the report", "Sent the invoice"] {
                let synced = await Self.waitForMoment(fixture, text: text, timeout: .seconds(120)) {
                    $0.sync == "synced"
                }
                #expect(synced != nil, "\(text): \(daemon.standardError)")
            }
            // The server may record a request a moment after hoorayd has its answer.
            let later = await pollUntil(timeout: .seconds(10), interval: .milliseconds(50)) {
                () -> [RecordedAIRequest]? in
                let requests = Array(((try? ai.requests()) ?? []).dropFirst(before))
                return requests.contains { $0.body.contains("Sent the invoice") } ? requests : nil
            }
            #expect(
                later?.allSatisfy { $0.headers["authorization"] == "Bearer \(key)" } == true,
                "the requests: \(((try? ai.requests()) ?? []).map { $0.headers["authorization"] ?? "no authorization" })"
            )

            await daemon.stop()
        }
    }

    @Test func badKeysAreRefusedAndTheStoredKeyIsKept() async throws {
        try await Self.withKeyring { fixture, keyring, _ in
            let good = Self.makeKey()
            let first = try await fixture.hooray(arguments: ["ai", "set-key", "--provider", "openai"], input: good)
            #expect(first.status == .exited(0), "\(first.standardError)")

            let bad: [(input: String, problem: String)] = [
                ("", "No key was given."),
                ("\n", "No key was given."),
                ("sk-1234", "too short to be an API key"),
                ("sk-first-line-1234\nX-Injected: yes\n", "line break inside"),
                ("sk-with space-1234", "spaces or tabs"),
                ("sk-naïve-key-1234", "other than visible ASCII"),
                ("“sk-quoted-key-1234”", "other than visible ASCII"),
                (String(repeating: "k", count: 5000), "longer than any API key"),
            ]
            for (input, problem) in bad {
                let output = try await fixture.hooray(
                    arguments: ["ai", "set-key", "--provider", "openai"], input: input)
                #expect(output.status == .exited(64), "\(problem)")
                #expect(output.standardError.hasPrefix("The key was not stored: "), "\(output.standardError)")
                #expect(output.standardError.contains(problem), "\(output.standardError)")
                #expect(output.standardOutput.isEmpty)
                if input.count > 8 { #expect(!output.standardError.contains(input.prefix(12))) }
            }
            // Nothing was half-stored: the one item is still the good key.
            let items = try await keyring.search(attributes: Self.openAIAttributes)
            #expect(items.map(\.secret) == [good])

            let badProvider = try await fixture.hooray(arguments: ["ai", "set-key", "--provider", "off"], input: good)
            #expect(badProvider.status == .exited(64))
            #expect(badProvider.standardError.contains("--provider \"off\" is not one of hooray, openai"))
        }
    }

    @Test func withoutASecretServiceSetKeyExplainsAndExits69() async throws {
        try await HoorayFixture.with { fixture in
            let key = Self.makeKey()
            // A bus with no keyring on it, then no bus at all.
            for environment in [[:], ["DBUS_SESSION_BUS_ADDRESS": ""]] {
                let output = try await fixture.hooray(
                    arguments: ["ai", "set-key"], environment: environment, input: key)
                #expect(output.status == .exited(69))
                #expect(output.standardError.hasPrefix("No Secret Service answers on the session bus ("))
                #expect(output.standardError.contains("Start your desktop's keyring"))
                #expect(output.standardError.contains("set api_key_file in the [ai] section"))
                #expect(!output.standardError.contains(key))

                let forget = try await fixture.hooray(arguments: ["ai", "forget-key"], environment: environment)
                #expect(forget.status == .exited(69))
            }
            #expect(Self.files(Self.regularFiles(under: fixture.home.path), containing: key) == [])
        }
    }
}
