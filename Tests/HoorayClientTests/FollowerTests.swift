import Foundation
import HoorayClient
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(1))) struct FollowerTests {
    static let lines = [#"{"api_version":1,"ok":true,"n":1}"#, #"{"api_version":1,"ok":true,"n":2}"#]

    @Test func everyAnswerLineOfAFollowedRequestArrivesUntilTheDaemonCloses() throws {
        let folder = try SocketFolder()
        // The last answer without its newline still counts.
        let answers = Data((Self.lines.joined(separator: "\n") + "\n" + #"{"api_version":1,"ok":false}"#).utf8)
        let server = try OneAnswerServer(path: folder.socket, answer: answers)
        var seen: [String] = []
        DispatchQueue.global().async {
            server.waitAnswered()
            server.release()
        }
        let end = try ControlFollower.follow(
            line: Data(#"{"api_version":1,"method":"bar","follow":true}"#.utf8 + [0x0A]), socketPath: folder.socket
        ) { line in
            seen.append(String(decoding: line, as: UTF8.self))
            return true
        }
        #expect(end == .closed(answers: 3))
        #expect(seen == Self.lines + [#"{"api_version":1,"ok":false}"#])
        #expect(server.request == Data(#"{"api_version":1,"method":"bar","follow":true}"#.utf8))
    }

    @Test func aFollowerThatHasSeenEnoughStops() throws {
        let folder = try SocketFolder()
        let server = try OneAnswerServer(
            path: folder.socket, answer: Data((Self.lines.joined(separator: "\n") + "\n").utf8))
        defer { server.release() }
        var seen = 0
        let end = try ControlFollower.follow(line: Data("{}\n".utf8), socketPath: folder.socket) { _ in
            seen += 1
            return false
        }
        #expect(end == .closed(answers: 1))
        #expect(seen == 1)
    }

    @Test func withNoDaemonAFollowerSaysSoAndWaitsForOneToListen() throws {
        let folder = try SocketFolder()
        #expect(
            try ControlFollower.follow(line: Data("{}\n".utf8), socketPath: folder.socket) { _ in true } == .notRunning)
        #expect(!ControlFollower.isListening(folder.socket))
        let path = folder.socket
        let started = DispatchSemaphore(value: 0)
        let server = Mutex<OneAnswerServer?>(nil)
        defer { server.withLock { $0?.release() } }
        DispatchQueue.global().async {
            started.wait()
            usleep(50_000)
            server.withLock { $0 = try? OneAnswerServer(path: path, answer: nil) }
        }
        started.signal()
        // Returns once the socket is made, having watched its folder.
        #expect(ControlFollower.waitForSocket(folder.socket))
        while !ControlFollower.isListening(folder.socket) { _ = ControlFollower.waitForSocket(folder.socket) }
        #expect(ControlFollower.isListening(folder.socket))
    }
}

@Suite struct ProcessArgumentsTests {
    @Test func theKernelsCommandLineIsTheProcesssOwnWordForWord() {
        let raw = ProcessArguments.raw()
        #expect(raw.map { String(decoding: $0, as: UTF8.self) } == CommandLine.arguments)
        #expect(ProcessArguments.current() == Array(CommandLine.arguments.dropFirst()))
    }
}
