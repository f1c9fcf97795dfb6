import Foundation

/// A real HTTP server on loopback that answers like an AI service, well or badly, for tests.
///
/// It runs `ai_server.py` (next to this file) with `/usr/bin/python3`, bound to `127.0.0.1` on a
/// port the system picks. The first path segment of a request picks the behaviour; use
/// ``endpoint(_:)`` to get the base address for one:
///
/// | mode | answer |
/// |---|---|
/// | `good` | a correct answer for the protocol the path names (`/moments` or `/v1/chat/completions`) |
/// | `markup` | a correct answer whose praise is `<b>Tom & Jerry</b>` |
/// | `notjson`, `array`, `wrongtypes`, `missing`, `emptypraise`, `wrongclient`, `nullcontent`, `nochoices` | broken answers |
/// | `oversized`, `oversized-chunked` | 5 MB, with and without a `Content-Length` |
/// | `drip` | a byte every 200 ms for a minute |
/// | `hang` | accepts and never answers |
/// | `redirect` | `302` to `/redirected/...` on the same server |
/// | `gated` | waits until ``openGate()`` (at most a minute), then answers as `good` does |
/// | `status-500`, `status-404`, `status-429`, `status-401`, `status-503` | that status |
///
/// Every request is recorded before it is answered; ``requests()`` reads them back.
///
/// ```swift
/// let server = try await TestAIServer()
/// // ... configure a client with server.endpoint("good") ...
/// #expect(try server.requests().first?.headers["x-user-id"] == id)
/// await server.stop()
/// ```
public final class TestAIServer: Sendable {
    /// The absolute path of `ai_server.py`, found next to this source file.
    public static let scriptPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("ai_server.py")
        .path

    /// The port the server listens on, on `127.0.0.1`.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The record file: one JSON object per request.
    public let recordFile: String
    /// The file naming the behaviour of `/scripted/...` requests.
    let scriptFile: String
    /// The file whose existence lets `/gated/...` requests be answered: ``openGate()`` makes it,
    /// and so may another process, such as a script that has seen what shows before the answer.
    public let gateFile: String

    private let process: ChildProcess
    private let directory: TemporaryDirectory

    /// Starts a server and waits until it listens.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; one the system picks by default. Give the port of a stopped
    ///     server to bring "the same" service back.
    ///   - idleExit: The server exits by itself after this long without a request.
    ///   - timeout: How long the server may take to start.
    /// - Throws: ``SystemTestingError/notReady(what:output:)`` when it does not start.
    public init(port: Int = 0, idleExit: Duration = .seconds(180), timeout: Duration = .seconds(10)) async throws {
        directory = try TemporaryDirectory(prefix: "hooray-ai")
        recordFile = directory.appending("requests.jsonl")
        scriptFile = directory.appending("mode")
        gateFile = directory.appending("gate")
        _ = FileManager.default.createFile(atPath: recordFile, contents: nil)
        process = try ChildProcess(
            "/usr/bin/python3",
            arguments: [
                Self.scriptPath, "--record", recordFile, "--idle", String(idleExit.components.seconds), "--port",
                String(port), "--script", scriptFile, "--gate", gateFile,
            ],
            environment: .inherited(overriding: ["PYTHONUNBUFFERED": "1"])
        )
        let ready = await process.waitForOutput(containing: "\n", timeout: timeout)
        let line = process.standardOutput.split(separator: "\n").first ?? ""
        guard ready, line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            await process.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(
                what: "ai_server.py", output: process.standardOutput + process.standardError)
        }
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The base address for a behaviour, such as `http://127.0.0.1:PORT/good`.
    ///
    /// - Parameter mode: One of the modes in the table above.
    public func endpoint(_ mode: String) -> URL {
        baseURL.appendingPathComponent(mode)
    }

    /// Sets how `/scripted/...` requests are answered from now on: one of the modes of
    /// `ai_server.py`, such as `good`, `notjson` or `status-500`.
    public func script(_ mode: String) throws {
        try mode.write(toFile: scriptFile, atomically: true, encoding: .utf8)
    }

    /// Lets `/gated/...` requests, waiting or to come, be answered.
    public func openGate() {
        _ = FileManager.default.createFile(atPath: gateFile, contents: nil)
    }

    /// Whether the server process is still running.
    public var isRunning: Bool { process.isRunning }

    /// What the server printed on standard error, for diagnosing a failing test.
    public var log: String { process.standardError }

    /// Every request received so far, oldest first.
    ///
    /// - Throws: ``SystemTestingError/unreadableRecord(file:line:reason:)`` for a malformed line.
    public func requests() throws -> [RecordedAIRequest] {
        let text = (try? String(contentsOfFile: recordFile, encoding: .utf8)) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line not yet complete
        return try lines.enumerated().map { number, line in
            do {
                return try JSONDecoder().decode(RecordedAIRequest.self, from: Data(line.utf8))
            } catch {
                throw SystemTestingError.unreadableRecord(file: recordFile, line: number + 1, reason: "\(error)")
            }
        }
    }

    /// Stops the server (`SIGTERM`, then `SIGKILL`). The record file stays readable.
    public func stop() async {
        guard process.isRunning else { return }
        await process.stop(gracePeriod: .seconds(2))
    }
}

/// Runs `body` with a fresh AI test server and stops the server when `body` returns, also when it throws.
///
/// - Parameters:
///   - port: The port to listen on; one the system picks by default. Give the port of a stopped
///     server to bring "the same" service back.
///   - idleExit: The server exits by itself after this long without a request.
///   - body: The test, given the server.
/// - Returns: What `body` returned.
/// - Throws: ``SystemTestingError/notReady(what:output:)`` when the server does not start; what `body` throws.
public func withAIServer<Result>(
    port: Int = 0, idleExit: Duration = .seconds(180), _ body: (TestAIServer) async throws -> Result
) async throws -> Result {
    let server = try await TestAIServer(port: port, idleExit: idleExit)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// One HTTP request as ``TestAIServer`` received it.
public struct RecordedAIRequest: Sendable, Hashable, Decodable {
    /// The method, such as `POST`.
    public var method: String
    /// The path, such as `/good/moments`.
    public var path: String
    /// The headers, by lower-case name.
    public var headers: [String: String]
    /// The body as UTF-8 text.
    public var body: String

    /// The body decoded from JSON.
    ///
    /// - Parameter type: The type to decode, such as a test's own struct with the fields it checks.
    /// - Returns: The decoded body.
    /// - Throws: `DecodingError` when the body is not JSON of that shape.
    public func decodedBody<Body: Decodable>(as type: Body.Type) throws -> Body {
        try JSONDecoder().decode(type, from: Data(body.utf8))
    }
}
