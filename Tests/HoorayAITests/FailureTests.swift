import Foundation
import HoorayAI
import HoorayKit
import HooraySystemTesting
import Testing

/// A broken answer and the error it must become.
struct BrokenAnswer: Sendable, CustomTestStringConvertible {
    var provider: AIConfiguration.Provider
    var mode: String
    var expected: AIRequestError

    var testDescription: String { "\(provider.rawValue) \(mode)" }

    static let all: [BrokenAnswer] = [
        .init(provider: .hooray, mode: "notjson", expected: .malformedResponse(what: "the answer is not JSON")),
        .init(provider: .openai, mode: "notjson", expected: .malformedResponse(what: "the answer is not JSON")),
        .init(
            provider: .hooray, mode: "array", expected: .malformedResponse(what: "the answer is not a JSON object")),
        .init(
            provider: .hooray, mode: "wrongtypes", expected: .malformedResponse(what: "the answer's id is not text")),
        .init(
            provider: .openai, mode: "wrongtypes",
            expected: .malformedResponse(what: "the answer's choices[0].message.content is not text")),
        .init(provider: .hooray, mode: "missing", expected: .malformedResponse(what: "the answer has no aiPraise")),
        .init(
            provider: .openai, mode: "missing",
            expected: .malformedResponse(what: "the answer's choices[0].message.content is empty")),
        .init(
            provider: .openai, mode: "nullcontent",
            expected: .malformedResponse(what: "the answer's choices[0].message.content is empty")),
        .init(
            provider: .hooray, mode: "emptypraise", expected: .malformedResponse(what: "the answer's aiPraise is empty")
        ),
        .init(
            provider: .openai, mode: "emptypraise",
            expected: .malformedResponse(what: "the answer's choices[0].message.content is empty")),
        .init(provider: .openai, mode: "nochoices", expected: .malformedResponse(what: "the answer has no choices")),
        .init(
            provider: .hooray, mode: "wrongclient",
            expected: .malformedResponse(what: "the answer's clientId is not the moment that was sent")),
        .init(provider: .hooray, mode: "oversized", expected: .responseTooLarge(limit: 65_536)),
        .init(provider: .openai, mode: "oversized-chunked", expected: .responseTooLarge(limit: 65_536)),
        .init(provider: .hooray, mode: "status-500", expected: .httpStatus(500)),
        .init(provider: .openai, mode: "status-503", expected: .httpStatus(503)),
        .init(provider: .hooray, mode: "status-404", expected: .httpStatus(404)),
        .init(provider: .openai, mode: "status-401", expected: .httpStatus(401)),
        .init(provider: .hooray, mode: "status-429", expected: .httpStatus(429)),
        .init(provider: .hooray, mode: "drip", expected: .timedOut),
        .init(provider: .openai, mode: "hang", expected: .timedOut),
    ]
}

@Suite("Broken answers")
struct FailureTests {
    @Test(arguments: BrokenAnswer.all)
    func aBrokenAnswerBecomesTheMatchingError(_ answer: BrokenAnswer) async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let log = RecordedLog()
            let provider = makeProvider(
                answer.provider, endpoint: server.endpoint(answer.mode), apiKeyEnv: nil, timeout: .seconds(1), log: log)

            let error = await requestError(provider)

            #expect(error as? AIRequestError == answer.expected)
            #expect(try server.requests().count == 1)
            let description = String(describing: error)
            #expect(!description.lowercased().contains(testUserID.uuidString.lowercased()))
            #expect(log.all.contains { $0.contains("No praise from the AI service") })
            #expect(!log.all.joined().lowercased().contains(testUserID.uuidString.lowercased()))
        }
    }

    @Test func aRedirectIsReportedAndNeverFollowed() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let error = await requestError(makeProvider(.hooray, endpoint: server.endpoint("redirect")))

            #expect(error as? AIRequestError == .redirected)
            #expect(try server.requests().map(\.path) == ["/redirect/moments"])
        }
    }

    @Test func aServerThatIsDownIsUnreachable() async throws {
        let server = try await TestAIServer()
        await server.stop()

        let error = await requestError(makeProvider(.hooray, endpoint: server.endpoint("good")))

        guard case .unreachable(let reason) = (error as? AIRequestError)?.reason else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("127.0.0.1"))
        #expect((error as? AIRequestError)?.isRetryable == true)
    }

    @Test func cancellingTheTaskAbortsAHangingRequestPromptly() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.hooray, endpoint: server.endpoint("hang"), timeout: .seconds(120))
            let clock = ContinuousClock()
            let started = clock.now
            let request = Task { await requestError(provider) }
            let arrived = await pollUntil(timeout: .seconds(10)) {
                try? server.requests().isEmpty == false ? true : nil
            }
            try #require(arrived == true)

            request.cancel()
            let error = await request.value

            #expect(error is CancellationError)
            // Far below the 120-second timeout: the transfer was aborted, not timed out.
            #expect(clock.now - started < .seconds(30))
        }
    }

    @Test func aTaskCancelledBeforehandSendsNothing() async throws {
        try await withAIServer { (server: TestAIServer) async throws in
            let provider = makeProvider(.hooray, endpoint: server.endpoint("good"))
            let request = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await requestError(provider)
            }

            #expect(await request.value is CancellationError)
            #expect(try server.requests().isEmpty)
        }
    }
}
