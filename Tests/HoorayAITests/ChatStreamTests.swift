import Foundation
import HoorayKeyring
import HoorayKit
import HooraySystemTesting
import Logging
import Testing

@testable import HoorayAI

/// The streamed chat answer: the decoder of server-sent events alone, then the real provider over
/// libcurl against the loopback server, streaming and misbehaving.
struct ChatStreamTests {
    /// One event carrying `content`.
    static func event(_ content: String) -> String {
        let chunk = [
            "choices": [["index": 0, "delta": ["content": content], "finish_reason": NSNull()] as [String: Any]]
        ]
        let data = try! JSONSerialization.data(withJSONObject: chunk)
        return "data: " + String(decoding: data, as: UTF8.self) + "\n\n"
    }

    /// Feeds `text` in pieces of `size` bytes; returns what was handed out, then what finish adds.
    static func decode(_ text: String, size: Int) throws -> (text: String, done: Bool) {
        var decoder = ChatStreamDecoder()
        var out = ""
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            out += try decoder.feed(bytes[start..<end])
            start = end
        }
        out += try decoder.finish()
        return (out, decoder.isDone)
    }

    @Test(arguments: [1, 3, 7, 64, 4096])
    func eventsSplitAnywhereGiveTheSameText(size: Int) throws {
        let stream =
            ": keep-alive\r\n" + "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\r\n\r\n"
            + Self.event("Water ") + Self.event("first — ") + Self.event("then 😊 a walk.") + "event: ping\nid: 3\n\n"
            + "data: [DONE]\n\n"
        let (text, done) = try Self.decode(stream, size: size)
        #expect(text == "Water first — then 😊 a walk.")
        #expect(done)
    }

    @Test func textIsHandedOutAsSoonAsItCannotBeMarkup() throws {
        var decoder = ChatStreamDecoder()
        // `&` or `<` at the end could begin markup: held back until the next piece shows it is plain.
        #expect(try decoder.feed(Array(Self.event("Tom &").utf8)) == "Tom ")
        #expect(try decoder.feed(Array(Self.event(" Jerry, 3 <").utf8)) == "& Jerry, 3 ")
        #expect(try decoder.feed(Array(Self.event(" 4 and <i").utf8)) == "< 4 and ")
        #expect(try decoder.feed(Array(Self.event("nfo").utf8)) == "")
        // The stream ends: what was held back is plain text after all.
        #expect(try decoder.finish() == "<info")
        #expect(!decoder.isDone)
    }

    @Test func aCharacterThatArrivesInTwoPiecesIsHandedOutWhole() throws {
        // A skin tone after its emoji, an accent after its letter, a flag's second half.
        let stream =
            Self.event("👍") + Self.event("🏽 e") + Self.event("\u{301}t\u{E9} 🇫") + Self.event("🇷") + "data: [DONE]\n\n"
        for size in [1, 2, 5, 4096] {
            let (text, done) = try Self.decode(stream, size: size)
            #expect(text == "👍🏽 e\u{301}t\u{E9} 🇫🇷", "\(size)")
            #expect(done)
        }
        var decoder = ChatStreamDecoder()
        #expect(try decoder.feed(Array(Self.event("👍").utf8)) == "👍")
        #expect(try decoder.feed(Array(Self.event("🏽").utf8)) == "🏽", "the modifier is handed out, not lost")
    }

    @Test func markupEndsTheAnswerAndKeepsWhatCameBefore() throws {
        var decoder = ChatStreamDecoder()
        #expect(try decoder.feed(Array(Self.event("Try this: ").utf8)) == "Try this: ")
        #expect(try decoder.feed(Array(Self.event("<b").utf8)) == "")
        #expect(throws: ChatStreamBroken(.markup)) { try decoder.feed(Array(Self.event(">water</b>").utf8)) }
        #expect(decoder.pendingMarkup == "")
    }

    @Test(arguments: [
        ("data: {not json\n\n", ChatStreamBroken.Reason.malformed(what: "a chunk is not a JSON object")),
        ("data: {\"object\":\"x\"}\n\n", .malformed(what: "a chunk has no choices list")),
        (
            "data: {\"choices\":[{\"delta\":\"hi\"}]}\n\n",
            .malformed(what: "a chunk's choices[0].delta is not an object")
        ),
        (
            "data: {\"choices\":[{\"delta\":{\"content\":7}}]}\n\n",
            .malformed(what: "a chunk's choices[0].delta.content is not text")
        ),
        (
            "<html><body>Hello</body></html>\n",
            .malformed(what: "a line is not a server-sent event (text/event-stream)")
        ),
        ("data: {\"error\":{\"message\":\"overloaded\"}}\n\n", .serviceError(message: "overloaded")),
    ])
    func brokenChunksAreNamed(stream: String, reason: ChatStreamBroken.Reason) {
        #expect(throws: ChatStreamBroken(reason)) { _ = try Self.decode(stream, size: 5) }
    }

    @Test func anEnormousLineOrAnswerIsRefused() {
        #expect(throws: ChatStreamBroken(.chunkTooLarge(limit: 64 * 1024))) {
            _ = try Self.decode("data: " + String(repeating: "x", count: 70_000) + "\n\n", size: 4096)
        }
        let long = (0..<900).map { _ in Self.event("ten chars ") }.joined()
        #expect(throws: ChatStreamBroken(.tooLong(limit: 8000))) { _ = try Self.decode(long, size: 4096) }
    }

    @Test func aStreamWithoutDoneIsNotComplete() throws {
        let (text, done) = try Self.decode(Self.event("Half an ") + Self.event("answer"), size: 10)
        #expect(text == "Half an answer")
        #expect(!done)
    }

    func configuration(_ endpoint: URL) -> AIConfiguration {
        AIConfiguration(
            provider: .openai, endpoint: endpoint, model: "test-model", connectTimeout: .seconds(2),
            timeout: .seconds(2), maxResponseBytes: 65536)
    }

    /// Every piece the provider yields, and how the stream ended.
    func collect(_ configuration: AIConfiguration) async -> (pieces: [String], error: (any Error)?) {
        let provider = CurlChatProvider(
            configuration: configuration, userID: UUID(), logger: Logger(label: "test"), keyring: noKeyring)
        var pieces: [String] = []
        do {
            for try await piece in provider.stream([ChatMessage(role: .user, content: "hi")]) { pieces.append(piece) }
            return (pieces, nil)
        } catch {
            return (pieces, error)
        }
    }

    @Test func theRealProviderStreamsAndNamesEachBrokenStream() async throws {
        try await withAIServer { ai in
            let good = await collect(configuration(ai.endpoint("good")))
            #expect(good.error == nil)
            #expect(good.pieces.count > 3, "pieces arrive one by one: \(good.pieces)")
            #expect(
                good.pieces.joined()
                    == "You don't have to eat perfectly. A glass of sparkling water first, then see how you feel.")
            let request = try #require(try ai.requests().last)
            #expect(request.headers["accept"] == "text/event-stream")
            #expect(request.body.contains("\"stream\":true"))

            let expected: [(String, ChatStreamBroken.Reason?, String)] = [
                ("stream-cut", .cutOff, "You don't have "),
                (
                    "stream-nodone", .stalled(seconds: 2),
                    "You don't have to eat perfectly. A glass of sparkling water first, then see how you feel."
                ),
                ("stream-markup", .markup, "Try this: "),
                ("stream-huge", .chunkTooLarge(limit: 64 * 1024), ""),
                ("stream-garbage", .malformed(what: "a chunk is not a JSON object"), ""),
            ]
            for (mode, reason, kept) in expected {
                let outcome = await collect(configuration(ai.endpoint(mode)))
                #expect(
                    (outcome.error as? ChatStreamBroken)?.reason == reason,
                    "\(mode): \(String(describing: outcome.error))")
                #expect(outcome.pieces.joined() == kept, "\(mode)")
            }
            let refused = await collect(configuration(ai.endpoint("status-503")))
            #expect(refused.error as? AIRequestError == .httpStatus(503))
            #expect(refused.pieces.isEmpty)
            let redirected = await collect(configuration(ai.endpoint("redirect")))
            #expect(redirected.error as? AIRequestError == .redirected)
        }
    }
}
