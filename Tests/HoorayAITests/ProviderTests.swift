import Foundation
import HoorayAI
import HoorayKit
import HooraySystemTesting
import Testing

/// The body the Hooray backend receives.
private struct HoorayBody: Decodable, Equatable {
    var clientId: String
    var text: String
    var happenedAt: String
    var submittedAt: String
    var tz: String
    var timeAgo: Int
}

/// The body a chat-completions server receives.
private struct ChatBody: Decodable {
    struct Message: Decodable {
        var role: String
        var content: String
    }
    var model: String
    var messages: [Message]
    var max_tokens: Int
}

@Suite("Providers against a loopback server")
struct ProviderTests {
    @Test func hoorayProviderPostsTheMomentAndReturnsThePraise() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.hooray, endpoint: server.endpoint("good"))

            let praise = try await provider.praise(for: makeMoment())

            #expect(praise.text == "You made space for yourself.")
            #expect(praise.serverID?.hasPrefix("srv-") == true)
            #expect(praise.action == "tidy")
            #expect(praise.tags == ["home", "care"])
            let requests = try server.requests()
            try #require(requests.count == 1)
            let request = requests[0]
            #expect(request.method == "POST")
            #expect(request.path == "/good/moments")
            #expect(request.headers["x-user-id"] == testUserID.uuidString.lowercased())
            #expect(request.headers["content-type"] == "application/json")
            #expect(request.headers["authorization"] == nil)
            #expect(
                try request.decodedBody(as: HoorayBody.self)
                    == HoorayBody(
                        clientId: "a1b2c3d4-e5f6-4711-8899-aabbccddeeff",
                        text: "Cleaned something quietly bothering me",
                        happenedAt: "2025-06-15T15:06:40Z", submittedAt: "2025-06-15T15:11:40Z", tz: "Europe/Berlin",
                        timeAgo: 300))
        }
    }

    @Test func openAIProviderSendsTheModelAndPromptAndReadsTheFirstChoice() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.openai, endpoint: server.endpoint("good"), model: "llama3.2")

            let praise = try await provider.praise(for: makeMoment())

            #expect(praise == AIPraise(text: "You made space for yourself."))
            let request = try #require(try server.requests().first)
            #expect(request.path == "/good/v1/chat/completions")
            #expect(request.headers["x-user-id"] == testUserID.uuidString.lowercased())
            #expect(request.headers["authorization"] == nil, "no key configured, as for Ollama")
            let body = try request.decodedBody(as: ChatBody.self)
            #expect(body.model == "llama3.2")
            #expect(body.messages.map(\.role) == ["system", "user"])
            #expect(body.messages[0].content.contains("Never shame"))
            #expect(body.messages[1].content.contains("Cleaned something quietly bothering me"))
            #expect(body.messages[1].content.contains("5 min ago"))
            #expect(body.max_tokens > 0)
        }
    }

    @Test func openAIProviderSendsTheKeyFromTheEnvironment() async throws {
        let variable = "HOORAY_TEST_KEY_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        setenv(variable, testAPIKey + "\n", 1)
        defer { unsetenv(variable) }
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.openai, endpoint: server.endpoint("good"), apiKeyEnv: variable)

            _ = try await provider.praise(for: makeMoment())

            #expect(try server.requests().first?.headers["authorization"] == "Bearer \(testAPIKey)")
        }
    }

    @Test func openAIProviderSendsTheKeyFromAPrivateFile() async throws {
        let directory = try TemporaryDirectory(prefix: "hooray-ai-key")
        let file = try directory.write("  \(testAPIKey)\n", to: "key")
        chmod(file, 0o600)
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.openai, endpoint: server.endpoint("good"), apiKeyFile: file)

            _ = try await provider.praise(for: makeMoment())

            #expect(try server.requests().first?.headers["authorization"] == "Bearer \(testAPIKey)")
        }
    }

    @Test(arguments: [AIConfiguration.Provider.hooray, .openai])
    func markupInThePraiseIsRefusedSoTheOfflinePraiseStays(provider: AIConfiguration.Provider) async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let error = await #expect(throws: AIRequestError.self) {
                try await makeProvider(provider, endpoint: server.endpoint("markup")).praise(for: makeMoment())
            }
            #expect(error?.description.contains("markup") == true)
        }
    }

    @Test func anEndpointWithAPathPrefixKeepsIt() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            // The server's "good/" mode plays a backend mounted below a path, given with a trailing slash.
            let endpoint = URL(string: server.baseURL.absoluteString + "/good/")!

            _ = try await makeProvider(.hooray, endpoint: endpoint).praise(for: makeMoment())

            #expect(try server.requests().map(\.path) == ["/good/moments"])
        }
    }

    @Test func offMeansNotConfiguredWithoutAnyRequest() async throws {
        let provider = CurlPraiseProvider(
            configuration: .defaults, userID: testUserID, logger: RecordedLog().logger())

        let error = await requestError(provider)

        #expect(error as? AIRequestError == .notConfigured)
    }
}
