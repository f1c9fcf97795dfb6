import Foundation
import HooraySystemTesting
import HoorayTesting
import Testing

/// The real `hoorayd` against whatever arrives on its control socket: garbage, spoiled requests,
/// requests too long or never finished, crowds of idle clients. Each connection gets an answer
/// (`ok`, or a refusal with a message) or is closed; the daemon neither dies nor hangs, and
/// afterwards `hooray status` and `hooray win` work as before.
///
/// The inputs come from ``FuzzInputs/seed``; a failure names it and the input's index, and
/// `HOORAY_FUZZ_SEED=<seed>` replays the run.
@Suite(.timeLimit(.minutes(2)))
struct ControlSocketFuzzTests {
    static let seed = FuzzInputs.seed

    static func socketPath(_ fixture: HoorayFixture) -> String {
        fixture.home.appending("runtime/hooray/control.sock")
    }

    /// A request line as `hooray` writes it.
    static func line(_ json: String) -> Data { Data((json + "\n").utf8) }

    /// A plugin command, its arguments and options (`values`) as given.
    static func plugin(_ name: String, _ command: String, payload values: String) -> String {
        #"{"api_version":1,"method":"command","plugin":"\#(name)","invocation":{"command":"\#(command)","values":\#(values),"flags":[],"json":false,"environment":{"time_zone":"UTC","color":false,"data_directory":"","host_version":""}}}"#
    }

    static let requests = [
        #"{"api_version":1,"method":"status"}"#, #"{"api_version":1,"method":"refresh"}"#,
        #"{"api_version":1,"method":"act","action":"done","notice":1}"#,
        plugin("wins", "log", payload: #"{"text":["Took a walk"],"ago":["2h"],"mood":["proud"]}"#),
        plugin("habits", "add", payload: #"{"name":["Read"],"every":["3d"],"remind":["20:00"],"start":["today"]}"#),
        plugin("habits", "pause", payload: #"{"name":["Read"],"for":["5d"]}"#),
        plugin("wins", "fav", payload: #"{"id":["abcd"]}"#),
    ]

    static let payloads = [
        ("wins", "log", #"{"text":["Took a walk"],"ago":["1h30m"],"mood":["calm"],"note":["nice"]}"#),
        ("habits", "add", #"{"name":["Stretch"],"on":["mon-fri"],"remind":["7:30"],"start":["2026-11-01"]}"#),
        ("habits", "edit", #"{"name":["Stretch"],"every":["2w"]}"#),
        ("habits", "pause", #"{"name":["Stretch"],"until":["2026-12-24"]}"#),
        ("habits", "done", #"{"name":["Stretch"],"date":["yesterday"]}"#),
    ]

    /// Inputs that a parser or the server once could not take, or that are easy to get wrong.
    static let hostile: [Data] = [
        Data(), line(""), line(" "), line("null"), line("[]"), line("{}"), line("\"status\""),
        line(#"{"api_version":1,"method":1}"#),
        line(#"{"api_version":1,"method":"status""#), line("{\"stat"), line(#"{"api_version":1,"method":"unknown"}"#),
        line(#"{"api_version":99,"method":"status"}"#), line(#"{"method":"status"}"#),
        line(#"{"api_version":1,"method":"status","method":"status"}"#),
        line(#"{"api_version":1,"method":"act","action":1,"notice":"x"}"#),
        line(#"{"api_version":1,"method":"act","action":"done","notice":1e400}"#),
        line(#"{"api_version":1,"method":"act","action":"done","notice":99999999999999999999999}"#),
        line(#"{"api_version":1,"method":"act","action":"done","notice":-9223372036854775808}"#),
        line(#"{"api_version":1,"method":"act","action":"done","notice":9223372036854775807}"#),
        line(plugin("wins", "log", payload: #""not an object""#)),
        line(plugin("nope", "log", payload: "{}")),
        line(plugin("wins", "log", payload: #"{"ago":["9223372036854775807m"]}"#)),
        line(plugin("wins", "log", payload: #"{"ago":["99999999999999999999h"]}"#)),
        line(plugin("habits", "add", payload: #"{"name":["Read"],"every":["1317624576693539401w"]}"#)),
        line(plugin("habits", "pause", payload: #"{"name":["Read"],"for":["9223372036854775807d"]}"#)),
        line(plugin("habits", "pause", payload: #"{"name":["Read"],"for":["1317624576693539401w"]}"#)),
        line(plugin("habits", "done", payload: #"{"name":["Read"],"date":["١٢:٠٠"]}"#)),
        line(plugin("habits", "done", payload: #"{"name":"Read"}"#)),
        line(String(repeating: "[", count: 100_000)), line(String(repeating: "{\"a\":", count: 50_000)),
        Data([0xFF, 0xFE, 0x00, 0x0A]), Data([0xC3, 0x28, 0x0A]), Data(repeating: 0x0A, count: 10),
        line(#"{"api_version":1,"method":"status"}"# + "\n" + #"{"api_version":1,"method":"reload"}"#),
    ]

    /// Sends `data` on a new connection, ends it the way `ending` says, and checks what came back.
    ///
    /// - Returns: `false` when the daemon no longer takes connections (it died on an earlier input).
    static func exchange(_ data: Data, path: String, ending: Int, _ what: Comment) -> Bool {
        let connection: RawControlConnection
        do {
            connection = try RawControlConnection(path: path)
        } catch {
            Issue.record("hoorayd takes no more connections (\(error)); it died before \(what)")
            return false
        }
        check(answer(from: connection, to: data, ending: ending), what)
        return true
    }

    static func answer(from connection: RawControlConnection, to data: Data, ending: Int)
        -> RawControlConnection.Outcome?
    {
        connection.send(data)
        switch ending {
        case 0:
            // Hang up without waiting: the daemon's answer must meet a closed socket harmlessly.
            return nil
        case 1:
            connection.finishSending()
        default:
            connection.send(Data("\n".utf8))
        }
        return connection.receive(timeout: .seconds(10))
    }

    /// Records an issue unless `outcome` is an answer (accepted, or refused with a message) or a close.
    static func check(_ outcome: RawControlConnection.Outcome?, _ what: Comment) {
        switch outcome {
        case nil, .closed:
            break
        case .answered(let data):
            guard let answer = ControlAnswer(data) else {
                Issue.record("not an answer: \(String(decoding: data.prefix(300), as: UTF8.self)); \(what)")
                return
            }
            #expect(answer.ok || !(answer.message ?? "").isEmpty, "a refusal without a message; \(what)")
        case .timedOut(let data):
            Issue.record("no answer and no close within 10 s (got \(data.count) bytes); \(what)")
        }
    }

    @Test func theProtocolIsPlainJSONAsDocumented() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let path = Self.socketPath(fixture)
            func ask(_ request: String) throws -> [String: Any] {
                let connection = try RawControlConnection(path: path)
                guard case .answered(let data) = Self.answer(from: connection, to: Self.line(request), ending: 1),
                    let object = try? JSONSerialization.jsonObject(with: data.prefix { $0 != 0x0A }) as? [String: Any]
                else { return [:] }
                return object
            }
            let status = try ask(#"{"api_version":1,"method":"status"}"#)
            #expect(status["api_version"] as? Int == 1)
            let started = (status["status"] as? [String: Any])?["started_at"] as? String
            #expect(
                started?.hasSuffix("Z") == true,
                "started_at is not an ISO 8601 UTC instant: \(String(describing: started))")
            let logged = try ask(Self.plugin("wins", "log", payload: #"{"text":["Wrote","it","by","hand"]}"#))
            #expect(logged["ok"] as? Bool == true)
            let reply = logged["reply"] as? [String: Any]
            #expect((reply?["text"] as? String)?.contains("Wrote it by hand") == true)
            #expect(reply?["json"] == nil, "the JSON travels only when asked for")
            let asJSON = try ask(
                Self.plugin("wins", "log", payload: #"{"text":["Wrote","it","again"]}"#)
                    .replacingOccurrences(of: #""json":false"#, with: #""json":true"#))
            let jsonReply = asJSON["reply"] as? [String: Any]
            #expect(((jsonReply?["json"] as? [String: Any])?["submittedAt"] as? String)?.hasSuffix("Z") == true)
            #expect((jsonReply?["text"] as? String)?.isEmpty == true)
            let newer = try ask(#"{"api_version":2,"method":"status"}"#)
            #expect(newer["ok"] as? Bool == false)
            #expect((newer["message"] as? String)?.contains("api_version 1") == true)
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func garbageOnTheControlSocketIsRefusedAndTheDaemonCarriesOn() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let path = Self.socketPath(fixture)
            var random = SeededRandomNumberGenerator(seed: Self.seed &+ 100)

            hostile: for (index, data) in Self.hostile.enumerated() {
                for ending in 0..<3 {
                    let what: Comment = "hostile input #\(index), ending \(ending)"
                    guard Self.exchange(data, path: path, ending: ending, what) else { break hostile }
                }
            }

            // Spoiled requests, spoiled plugin arguments inside well-formed requests, and random bytes.
            for index in 0..<360 {
                let data: Data
                switch index % 3 {
                case 0:
                    var text = Self.requests.randomElement(using: &random)!
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        text = TextMutations.mutate(text, using: &random)
                    }
                    data = Data(text.utf8)
                case 1:
                    let (name, command, payload) = Self.payloads.randomElement(using: &random)!
                    var text = payload
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        text = TextMutations.mutate(text, using: &random)
                    }
                    data = Data(Self.plugin(name, command, payload: text).utf8)
                default:
                    data = Data(
                        (0..<Int.random(in: 0...200, using: &random)).map { _ in
                            UInt8.random(in: 0...255, using: &random)
                        }
                    )
                }
                let ending = Int.random(in: 0..<4, using: &random)
                guard Self.exchange(data, path: path, ending: ending, "seed \(Self.seed), input #\(index)") else {
                    break
                }
            }

            // A line of a few megabytes is refused once the limit is passed, without reading it all.
            let long = try RawControlConnection(path: path)
            long.send(
                Data(
                    #"{"api_version":1,"method":"command","plugin":"wins","invocation":{"command":"log","values":{"text":[""#
                        .utf8) + Data(repeating: 0x41, count: 4 << 20))
            Self.check(long.receive(timeout: .seconds(10)), "a 4 MB line")
            #expect(daemon.isRunning, "hoorayd died on a 4 MB line")

            // A request without its newline, then the writing side closed, is still a request.
            let halfClosed = try RawControlConnection(path: path)
            halfClosed.send(Data(#"{"api_version":1,"method":"status"}"#.utf8))
            halfClosed.finishSending()
            if case .answered(let data) = halfClosed.receive(timeout: .seconds(10)) {
                #expect(ControlAnswer(data)?.ok == true)
            } else {
                Issue.record("no answer to a half-closed status request")
            }

            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0), "\(status.standardError)")
            #expect(status.standardOutput.contains("hoorayd is running"))
            let win = try await fixture.hooray("win", "still here")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardOutput.contains("still here"))
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }

    @Test func idleClientsNeitherBlockOthersNorStayForEver() async throws {
        try await HoorayFixture.with { fixture in
            let daemon = try await fixture.startDaemon()
            let path = Self.socketPath(fixture)

            // Clients that connect and say nothing, or start a request and never finish it.
            var idle = try (0..<8).map { _ in try RawControlConnection(path: path) }
            for connection in idle.prefix(4) { connection.send(Data(#"{"sta"#.utf8)) }
            let started = ContinuousClock.now
            let status = try await fixture.hooray("status")
            #expect(status.status == .exited(0), "\(status.standardError)")
            // Waiting behind them would take at least their 5 s request deadline.
            #expect(started.duration(to: .now) < .seconds(5), "hooray status waited behind idle clients")

            // Each is told, within the request timeout, that no request came, and is closed.
            for connection in idle {
                switch connection.receive(timeout: .seconds(10)) {
                case .answered(let data):
                    #expect(ControlAnswer(data)?.message?.contains("no whole request line") == true)
                case let other:
                    Issue.record("an idle client was not sent away: \(other)")
                }
            }
            idle = []

            // A crowd past the limit is turned away at once with a message, not queued.
            idle = try (0..<70).map { _ in try RawControlConnection(path: path) }
            let turnedAway = idle.suffix(6).map { $0.receive(timeout: .seconds(2)) }
            for outcome in turnedAway {
                guard case .answered(let data) = outcome, let answer = ControlAnswer(data) else {
                    Issue.record("a client past the limit got \(outcome)")
                    continue
                }
                #expect(!answer.ok && answer.message?.contains("busy") == true)
            }
            // `hooray status` says the daemon is busy; it does not claim there is none.
            let busy = try await fixture.hooray("status")
            #expect(busy.status == .exited(75))
            #expect(busy.standardError.contains("busy"), "\(busy.standardOutput)\(busy.standardError)")
            // Once they hang up, everyone is served again.
            idle = []
            let again = try await fixture.hooray("status")
            #expect(again.status == .exited(0), "\(again.standardError)")
            #expect(daemon.isRunning)
            await daemon.stop()
        }
    }
}
