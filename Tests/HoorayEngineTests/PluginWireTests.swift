import Foundation
import HoorayCalendar
import HoorayClient
import HoorayKit
import Testing

@testable import HoorayEngine
@testable import HoorayExternalPlugins

/// The plugin protocol's bytes: frames as in LSP, JSON-RPC messages, and the members of a call.
@Suite struct PluginWireTests {
    func bodies(_ text: String, split: Int? = nil) throws -> [String] {
        var decoder = FrameDecoder()
        var found: [String] = []
        let bytes = Array(text.utf8)
        let chunks =
            split.map { size in
                stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
            }
            ?? [bytes]
        for chunk in chunks {
            decoder.append(chunk)
            while let body = try decoder.next() { found.append(String(decoding: body, as: UTF8.self)) }
        }
        return found
    }

    @Test func framesAreCutByTheirLengthHoweverTheBytesArrive() throws {
        let stream = "Content-Length: 2\r\n\r\n{}Content-Type: application/json\r\ncontent-length: 7\r\n\r\n[1,2,3]"
        for split in [nil, 1, 3, 7] {
            #expect(try bodies(stream, split: split) == ["{}", "[1,2,3]"], "split \(String(describing: split))")
        }
        // A body of many bytes, some of them multi-byte characters.
        let body = #"{"title":"Focus session done 🍅"}"#
        #expect(try bodies("Content-Length: \(body.utf8.count)\r\n\r\n\(body)", split: 5) == [body])
    }

    @Test func aLogLineOnStandardOutputIsCaughtAtItsFirstBytes() {
        #expect(throws: FrameError.outsideFrame("hello")) { try bodies("hello") }
        #expect(throws: FrameError.outsideFrame("{\"jsonrpc\"")) { try bodies("{\"jsonrpc\"") }
        // After a good frame, too.
        #expect(throws: FrameError.outsideFrame("Done")) { try bodies("Content-Length: 2\r\n\r\n{}Done\n") }
        let error = FrameError.outsideFrame("Starting up…")
        #expect(error.description.contains("outside a frame"))
        #expect(error.description.contains("log to standard error"))
    }

    @Test func aBodyOverOneMebibyteIsRefusedFromItsHeaderAlone() {
        #expect(throws: FrameError.bodyTooLarge(100_000_000)) { try bodies("Content-Length: 100000000\r\n\r\n") }
        #expect(throws: FrameError.badHeader("X-Custom: 1")) {
            try bodies("Content-Length: 2\r\nX-Custom: 1\r\n\r\n{}")
        }
        #expect(throws: FrameError.badHeader("Content-Length: many")) { try bodies("Content-Length: many\r\n\r\n") }
        #expect(throws: FrameError.headerTooLong) {
            try bodies("Content-Type: " + String(repeating: "x", count: 5000))
        }
    }

    @Test func messagesAreReadAsRequestsNotificationsAndAnswers() throws {
        func message(_ text: String) throws(RPCError) -> RPCMessage { try RPCMessage(body: Data(text.utf8)) }
        #expect(
            try message(#"{"jsonrpc":"2.0","id":3,"method":"storageGet","params":{"key":"a"}}"#)
                == .request(id: .number(3), method: "storageGet", params: ["key": .string("a")]))
        #expect(
            try message(#"{"jsonrpc":"2.0","method":"log","params":{"message":"hi"}}"#)
                == .notification(method: "log", params: ["message": .string("hi")]))
        #expect(try message(#"{"jsonrpc":"2.0","id":"x","result":{}}"#) == .result(id: .string("x"), .object([:])))
        #expect(
            try message(#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}"#)
                == .error(id: .number(4), RPCError(code: -32601, message: "no")))
        #expect(throws: RPCError.self) { try message("not json") }
        #expect((try? message("not json")) == nil)
        do {
            _ = try message("[1]")
            Issue.record("a batch was read")
        } catch {
            #expect(error.code == -32600)
        }
        do {
            _ = try message("{ oops")
        } catch {
            #expect(error.code == -32700)
        }
    }

    @Test func aCallWithAMemberNamingAnotherPluginIsRefusedByName() throws {
        var params = WireParams(method: "storageGet", members: ["key": .string("a"), "plugin": .string("wins")])
        #expect(try params.key("key") == "a")
        do {
            try params.finish()
            Issue.record("another plugin's storage was reachable")
        } catch {
            #expect(error.code == -32602)
            #expect(error.message.contains("`plugin`"))
            #expect(error.message.contains("only its own storage"))
        }
        var control = WireParams(method: "storageGet", members: ["key": .string("a\u{7}b")])
        #expect(throws: RPCError.self) { try control.key("key") }
    }

    @Test func schedulesAndNoticesReadAsTheDocumentWritesThem() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        #expect(
            try Wire.schedule(.object(["in": .number(1500)]), now: now, timeZone: berlin, method: "m")
                == .once(at: now.addingTimeInterval(1500)))
        #expect(
            try Wire.schedule(.object(["at": .string("2026-11-24T10:25:00Z")]), now: now, timeZone: berlin, method: "m")
                == .once(at: try Date("2026-11-24T10:25:00Z", strategy: .iso8601)))
        #expect(
            try Wire.schedule(.object(["daily": .string("08:30")]), now: now, timeZone: berlin, method: "m")
                == .daily(at: TimeOfDay(hour: 8, minute: 30)!, zone: berlin))
        #expect(
            try Wire.schedule(
                .object(["weekly": .array([.string("mon"), .string("wed")]), "time": .string("18:00")]), now: now,
                timeZone: berlin, method: "m")
                == .weekly(on: [.monday, .wednesday], at: TimeOfDay(hour: 18)!, zone: berlin))
        for bad: JSONValue in [
            .object([:]), .object(["daily": .string("8h")]), .object(["in": .number(-1)]),
            .object(["at": .string("tomorrow")]),
            .object(["weekly": .array([.string("someday")]), "time": .string("08:00")]),
            .object(["daily": .string("08:00"), "zone": .string("Mars/Olympus")]), .string("daily"),
        ] {
            #expect(throws: RPCError.self, "\(bad.text())") {
                try Wire.schedule(bad, now: now, timeZone: berlin, method: "m")
            }
        }
        let notice = try Wire.notice(
            .object([
                "title": .string("Focus session done 🍅"),
                "actions": .array([.object(["id": .string("break"), "label": .string("Break")])]),
                "payload": .object(["session": .number(2)]),
            ]), method: "m")
        #expect(notice.title == "Focus session done 🍅")
        #expect(notice.actions == [NoticeAction(id: "break", label: "Break")])
        #expect(notice.payload == .object(["session": .number(2)]))
        #expect(throws: RPCError.self) { try Wire.notice(.object(["body": .string("no title")]), method: "m") }
        #expect(throws: RPCError.self) {
            try Wire.notice(.object(["title": .string("t"), "sound": .string("x")]), method: "m")
        }
    }

    @Test func aButtonsQuestionIsReadAndWrittenAndABadOneIsRefused() throws {
        func notice(_ button: [String: JSONValue]) throws(RPCError) -> Notice {
            try Wire.notice(.object(["title": .string("t"), "actions": .array([.object(button)])]), method: "m")
        }
        let asking: [String: JSONValue] = [
            "id": .string("log"), "label": .string("Log it"), "prompt": .string("What did you read?"),
        ]
        let read = try notice(asking)
        #expect(read.actions == [NoticeAction(id: "log", label: "Log it", prompt: "What did you read?")])
        #expect(Wire.noticeJSON(read)["actions"] == .array([.object(asking)]))
        // Without one, or with null, the button asks nothing, and is written without the member.
        let plain = try notice(["id": .string("done"), "label": .string("Done"), "prompt": .null])
        #expect(plain.actions.first?.prompt == nil)
        #expect(
            Wire.noticeJSON(plain)["actions"] == .array([.object(["id": .string("done"), "label": .string("Done")])]))
        let bads: [JSONValue] = [
            .string(""), .string("   "), .string(String(repeating: "?", count: 201)), .number(1),
            .string("What did you read?\u{1b}[2J"), .string("What did\nyou read?"), .string("Read?\u{9b}"),
        ]
        for bad in bads {
            let refused = #expect(throws: RPCError.self, "\(bad.text())") {
                try notice(["id": .string("log"), "label": .string("Log it"), "prompt": bad])
            }
            #expect(
                refused?.message.contains("1 to 200 characters, not only spaces, without control characters") == true,
                "\(refused?.message ?? "")")
        }
    }

    @Test func actCarriesTheAnswerOnlyWhenThereIsOne() throws {
        let decoder = JSONDecoder()
        let old = #"{"api_version":1,"method":"act","notice":12,"action":"done","request_id":"r"}"#
        #expect(
            try decoder.decode(ControlRequest.self, from: Data(old.utf8))
                == .act(notice: 12, action: "done", answer: nil, requestID: "r"))
        let answered =
            #"{"api_version":1,"method":"act","notice":3,"action":"did-swap","answer":"Tea instead of wine"}"#
        let request = try decoder.decode(ControlRequest.self, from: Data(answered.utf8))
        #expect(request == .act(notice: 3, action: "did-swap", answer: "Tea instead of wine"))
        #expect(try JSONValue(encoding: request)["answer"] == .string("Tea instead of wine"))
        #expect(try JSONValue(encoding: ControlRequest.act(notice: 3, action: "done"))["answer"] == nil)
    }
}
