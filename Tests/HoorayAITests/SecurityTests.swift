import Foundation
import HoorayAI
import HoorayKeyring
import HoorayKit
import HooraySystemTesting
import Testing

@Suite("Endpoints, keys and secrets")
struct SecurityTests {
    @Test(arguments: [
        "http://192.0.2.1", "http://192.0.2.1:11434/api", "HTTP://198.51.100.1", "http://[2001:db8::1]",
        "http://[::ffff:192.0.2.1]", "ftp://127.0.0.1", "file:///etc/passwd", "https://",
    ])
    func anEndpointThatIsNotAllowedIsRefusedBeforeConnecting(_ endpoint: String) async throws {
        let provider = makeProvider(.hooray, endpoint: URL(string: endpoint)!)

        let error = await requestError(provider)

        // 192.0.2.0/24 is reserved for documentation and unreachable here: any attempt to connect
        // would end as unreachable or timed out, never as insecureEndpoint.
        guard case .insecureEndpoint = (error as? AIRequestError)?.reason else {
            Issue.record("expected insecureEndpoint, got \(String(describing: error))")
            return
        }
        #expect(String(describing: error).contains("plain http is allowed only to loopback"))
    }

    @Test func aRefusedEndpointDoesNotShowItsPassword() async throws {
        let provider = makeProvider(.openai, endpoint: URL(string: "http://me:hunter2@192.0.2.1/v1")!)

        let error = await requestError(provider)

        #expect(error as? AIRequestError == .insecureEndpoint(url: "http://192.0.2.1/v1"))
    }

    @Test(arguments: ["http://127.0.0.9:1", "http://localhost:1", "http://[::1]:1"])
    func plainHTTPToLoopbackIsAllowed(_ endpoint: String) async throws {
        // Port 1 has no listener: the request is made and refused, which shows it was allowed.
        let error = await requestError(makeProvider(.hooray, endpoint: URL(string: endpoint)!))

        guard case .unreachable = (error as? AIRequestError)?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aKeyFileOthersCanReadIsRefusedWithTheFix(mode: Int) async throws {
        let directory = try TemporaryDirectory(prefix: "hooray-ai-key")
        let file = try directory.write(testAPIKey, to: "key")
        chmod(file, mode_t(mode))
        try await withAIServer { (server: TestAIServer) async throws in
            let error = await requestError(makeProvider(.openai, endpoint: server.endpoint("good"), apiKeyFile: file))

            #expect(error as? AIRequestError == .apiKeyFileTooOpen(path: file, mode: mode))
            let description = String(describing: error)
            #expect(description.contains("chmod 600 \(file)"))
            #expect(description.contains("mode 0\(String(mode, radix: 8))"))
            #expect(!description.contains(testAPIKey))
            #expect(try server.requests().isEmpty, "nothing is sent without a usable key")
        }
    }

    @Test func aMissingKeyFileAndAnUnsetVariableAreClearErrors() async throws {
        let directory = try TemporaryDirectory(prefix: "hooray-ai-key")
        let missing = directory.appending("nope")
        let variable = "HOORAY_TEST_UNSET_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")

        let fileError = await requestError(
            makeProvider(.openai, endpoint: URL(string: "http://127.0.0.1:1")!, apiKeyFile: missing))
        let variableError = await requestError(
            makeProvider(.openai, endpoint: URL(string: "http://127.0.0.1:1")!, apiKeyEnv: variable))

        #expect(String(describing: fileError).contains("cannot open the API key file \(missing)"))
        #expect(String(describing: variableError).contains("the environment variable \(variable)"))
        #expect(String(describing: variableError).contains("is not set"))
    }

    @Test func aKeyWithALineBreakInsideIsRefusedWithoutRepeatingIt() async throws {
        let directory = try TemporaryDirectory(prefix: "hooray-ai-key")
        let file = try directory.write("\(testAPIKey)\nX-Injected: yes\n", to: "key")
        chmod(file, 0o600)
        try await withAIServer { (server: TestAIServer) async throws in
            let error = await requestError(makeProvider(.openai, endpoint: server.endpoint("good"), apiKeyFile: file))

            guard case .apiKeyUnavailable = (error as? AIRequestError)?.reason else {
                Issue.record("expected apiKeyUnavailable, got \(String(describing: error))")
                return
            }
            #expect(!String(describing: error).contains(testAPIKey))
            #expect(try server.requests().isEmpty)
        }
    }

    @Test func neitherTheKeyNorTheUserIDAppearInAnyErrorOrLogLine() async throws {
        let variable = "HOORAY_TEST_KEY_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        setenv(variable, testAPIKey, 1)
        defer { unsetenv(variable) }
        let log = RecordedLog()
        var descriptions: [String] = []
        try await withAIServer { (server: TestAIServer) async throws in
            for mode in ["good", "status-401", "status-500", "notjson", "wrongtypes", "redirect", "oversized", "hang"] {
                let provider = makeProvider(
                    .openai, endpoint: server.endpoint(mode), apiKeyEnv: variable, timeout: .seconds(1), log: log)
                if let error = await requestError(provider) { descriptions.append(String(describing: error)) }
            }
            #expect(try server.requests().allSatisfy { $0.headers["authorization"] == "Bearer \(testAPIKey)" })
        }
        let everything = (descriptions + log.all).joined(separator: "\n").lowercased()

        #expect(descriptions.count == 7)
        #expect(!log.all.isEmpty)
        #expect(!everything.contains(testAPIKey.lowercased()))
        #expect(!everything.contains("secretkey"))
        #expect(!everything.contains(testUserID.uuidString.lowercased()))
    }
}

@Suite("Keys in the keyring", .timeLimit(.minutes(2)))
struct KeyringKeyTests {
    /// Runs `body` with a real GNOME Keyring on a private bus, stopped afterwards.
    func withKeyring(_ body: (KeyringDaemon, Keyring) async throws -> Void) async throws {
        try await KeyringDaemon.withPrivateKeyring(homePrefix: "hooray-ai-home") { bus, daemon in
            try await body(daemon, Keyring(busAddress: bus.address))
        }
    }

    @Test func aStoredKeyIsSentWhenTheConfigurationSaysKeyringOrNamesNoOtherSource() async throws {
        try await withKeyring { daemon, keyring in
            try keyring.store(.aiKey(provider: "openai"), value: testAPIKey)
            try await withAIServer { (server: TestAIServer) async throws in
                for apiKey in [AIConfiguration.KeyStore.keyring, nil] {
                    let log = RecordedLog()
                    let provider = makeProvider(
                        .openai, endpoint: server.endpoint("good"), apiKey: apiKey, keyring: keyring, log: log)
                    #expect(await requestError(provider) == nil)
                    #expect(!log.all.joined().contains("SECRETKEY"))
                }
                let requests = try server.requests()
                #expect(requests.count == 2)
                #expect(requests.allSatisfy { $0.headers["authorization"] == "Bearer \(testAPIKey)" })
            }
        }
    }

    @Test func aMissingOrLockedKeyIsAClearErrorAndNothingIsSent() async throws {
        try await withKeyring { daemon, keyring in
            try await withAIServer { (server: TestAIServer) async throws in
                let required = makeProvider(
                    .openai, endpoint: server.endpoint("good"), apiKey: .keyring, keyring: keyring)
                let missing = await requestError(required)
                #expect(
                    missing as? AIRequestError
                        == .apiKeyUnavailable(
                            reason: "no AI key is stored in your keyring for openai; run `hooray ai set-key` "
                                + "(api_key = \"keyring\" in the [ai] section)"))
                // Without api_key = "keyring", no stored key means no key, as for a local server.
                let optional = makeProvider(.openai, endpoint: server.endpoint("good"), keyring: keyring)
                #expect(await requestError(optional) == nil)
                #expect(try server.requests().first?.headers["authorization"] == nil)

                try keyring.store(.aiKey(provider: "openai"), value: testAPIKey)
                try await daemon.lock()
                for provider in [required, optional] {
                    let locked = String(describing: await requestError(provider))
                    #expect(locked.contains("your keyring is locked, so the AI key for openai cannot be read"))
                    #expect(!locked.contains("SECRETKEY"))
                }
                #expect(try server.requests().count == 1)
            }
        }
    }

    @Test func noKeyringAtAllIsAnErrorOnlyWhenTheKeyMustComeFromIt() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let required = makeProvider(.openai, endpoint: server.endpoint("good"), apiKey: .keyring)
            let error = String(describing: await requestError(required))
            #expect(error.contains("the keyring cannot be asked (no session bus"))
            #expect(error.contains("set api_key_file instead of api_key = \"keyring\""))
            #expect(await requestError(makeProvider(.openai, endpoint: server.endpoint("good"))) == nil)
        }
    }
}
