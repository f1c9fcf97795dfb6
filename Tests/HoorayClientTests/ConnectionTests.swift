import Foundation
import HoorayBasics
import HoorayClient
import HooraySystemTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A private folder for one test's socket, removed after it.
final class SocketFolder {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "hooray-client-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw ControlError(message: "cannot make a temporary folder") }
        path = String(cString: made)
    }

    var socket: String { path + "/control.sock" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A server on a real listening Unix socket that answers one connection with `answer` (nothing
/// when `nil`) once it has read its request line, and keeps it open until `release()`.
final class OneAnswerServer: @unchecked Sendable {
    let fd: Int32
    private let done = DispatchSemaphore(value: 0)
    private let release_ = DispatchSemaphore(value: 0)
    private(set) var request: Data?
    /// The server's end of the connection, once it was accepted.
    private(set) var connection: Int32 = -1

    init(path: String, answer: Data?) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard var address = UnixSocket.address(path) else { throw ControlError(message: "path too long") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 4) == 0 else { throw ControlError(message: "cannot listen on \(path)") }
        Thread.detachNewThread { [self] in
            let client = accept(fd, nil, nil)
            connection = client
            if case .line(let line) = UnixSocket.readLine(
                client, limit: 1 << 20, deadline: .now.advanced(by: .seconds(30)))
            {
                request = line
            }
            if let answer { _ = UnixSocket.writeAll(client, answer) }
            done.signal()
            release_.wait()
            close(client)
        }
    }

    /// Waits until the request was read and the answer (if any) written.
    func waitAnswered() { done.wait() }

    /// Closes the connection.
    func release() { release_.signal() }

    deinit { close(fd) }
}

@Suite(.timeLimit(.minutes(1))) struct ConnectionTests {
    static let request = RunRequest(
        arguments: ["win", "Took a walk"],
        caller: FrontDoorCaller(
            timeZone: "UTC", color: false, interactive: false, dataDirectory: "/d", workingDirectory: "/w",
            home: "/h", version: HoorayVersion.current),
        requestID: "0b5c0f5e-8d0e-4d0c-9a57-2f4f6f1d2a11")

    @Test func aRequestAndItsAnswerMakeTheRoundTripOverARealSocket() throws {
        let folder = try SocketFolder()
        let answer = Data(
            #"{"api_version":1,"ok":true,"output":{"status":0,"writes":[{"text":"Moment logged\n","to":1}]}}"#.utf8
                + [0x0A])
        let server = try OneAnswerServer(path: folder.socket, answer: answer)
        defer { server.release() }
        let connection = try #require(try ControlConnection(socketPath: folder.socket))
        #expect(connection.send(line: try ControlCoding.encode(Self.request)))
        guard case .answered(let line) = try connection.receiveLine(within: 30) else {
            Issue.record("no answer came")
            return
        }
        server.waitAnswered()
        // The server read the very request the client wrote.
        let request = try ControlCoding.decode(RunRequest.self, from: try #require(server.request))
        #expect(request == Self.request)
        let read = try ControlCoding.decode(RunAnswer.self, from: line)
        #expect(read.output == CommandOutput(writes: [.init(to: 1, text: "Moment logged\n")], status: 0))
        #expect(!connection.peerIsStopped)
    }

    @Test func anAnswerOnAnAdoptedConnectionIsReadToItsNewline() throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        let connection = ControlConnection(adopting: ends[0])
        // Written in two parts: the line is read whole across them.
        #expect(UnixSocket.writeAll(ends[1], Data(#"{"api_version":1,"#.utf8)))
        #expect(UnixSocket.writeAll(ends[1], Data(#""ok":true}"#.utf8 + [0x0A] + #"{"next"#.utf8)))
        #expect(try connection.receiveLine(within: 30) == .answered(Data(#"{"api_version":1,"ok":true}"#.utf8)))
        #expect(fcntl(ends[0], F_GETFD) & FD_CLOEXEC != 0, "an adopted connection is closed on exec")
    }

    @Test func aDaemonThatDoesNotAnswerInTimeLeavesTheRequestWaiting() throws {
        let folder = try SocketFolder()
        let server = try OneAnswerServer(path: folder.socket, answer: nil)
        defer { server.release() }
        let connection = try #require(try ControlConnection(socketPath: folder.socket))
        #expect(connection.send(line: try ControlCoding.encode(Self.request)))
        // The server has the request, and says nothing.
        server.waitAnswered()
        #expect(try connection.receiveLine(within: 0.2) == .notYet)
        // Waiting on, the answer that comes is read.
        #expect(UnixSocket.writeAll(server.connection, Data(#"{"api_version":1,"ok":true}"#.utf8 + [0x0A])))
        #expect(try connection.receiveLine(within: 30) == .answered(Data(#"{"api_version":1,"ok":true}"#.utf8)))
    }

    @Test func anAnswerCutOffPastItsTimeIsNotTakenForOne() throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[1]) }
        let connection = ControlConnection(adopting: ends[0])
        connection.answerRest = .milliseconds(200)
        #expect(UnixSocket.writeAll(ends[1], Data(#"{"api_version":1,"ok":tr"#.utf8)))
        #expect(try connection.receiveLine(within: 0) == .closed)
    }

    @Test func aDaemonThatClosesWithoutAnsweringIsSeenToHaveClosed() throws {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let connection = ControlConnection(adopting: ends[0])
        close(ends[1])
        #expect(try connection.receiveLine(within: 30) == .closed)
    }

    @Test func noDaemonListeningIsNoConnectionRatherThanAnError() throws {
        let folder = try SocketFolder()
        #expect(try ControlConnection(socketPath: folder.socket) == nil)
    }

    @Test(.enabled(if: SecondUser.isAvailable, "needs root and setpriv to act as a second user"))
    func aSocketServedByAnotherUserGetsNothingAndIsNamed() throws {
        let folder = try SocketFolder()
        chmod(folder.path, 0o777)
        let script = """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(sys.argv[1] + ".tmp")
            s.listen(4)
            import os
            os.rename(sys.argv[1] + ".tmp", sys.argv[1])
            c, _ = s.accept()
            data = c.recv(4096)
            open(sys.argv[1] + ".got", "wb").write(data)
            time.sleep(5)
            """
        let process = Process()
        let line = SecondUser.command(["/usr/bin/python3", "-c", script, folder.socket])
        process.executableURL = URL(fileURLWithPath: line[0])
        process.arguments = Array(line.dropFirst())
        try process.run()
        defer { process.terminate() }
        // The other user's server listens once its socket has its name.
        while !FileManager.default.fileExists(atPath: folder.socket) && process.isRunning { usleep(10_000) }
        #expect(process.isRunning)
        do {
            _ = try ControlConnection(socketPath: folder.socket)
            Issue.record("a connection to another user's server was made")
        } catch {
            #expect(error.requestWasRefused)
            #expect(error.message.contains("another user (uid \(SecondUser.uid))"))
            #expect(error.message.contains("nothing was sent"))
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.socket + ".got")
                || ((try? Data(contentsOf: URL(fileURLWithPath: folder.socket + ".got"))) ?? Data()).isEmpty)
    }
}

@Suite struct PathRuleTests {
    @Test func theSocketIsInTheRuntimeFolderAndTheDataInTheDataHome() throws {
        let paths = try HoorayPaths(environment: ["HOME": "/home/me", "XDG_RUNTIME_DIR": "/run/user/7"])
        #expect(paths.dataDirectory == "/home/me/.local/share/hooray")
        #expect(paths.controlSocket == "/run/user/7/hooray/control.sock")
        #expect(!paths.runtimeDirectoryIsShared)
        let elsewhere = try HoorayPaths(environment: ["XDG_DATA_HOME": "/data", "TMPDIR": "/scratch/"])
        #expect(elsewhere.dataDirectory == "/data/hooray")
        #expect(elsewhere.controlSocket == "/scratch/hooray-\(geteuid())/control.sock")
        #expect(elsewhere.runtimeDirectoryIsShared)
    }

    @Test func aRuntimeFolderOthersMayUseIsRefusedWithTheFix() throws {
        let folder = try SocketFolder()
        let runtime = folder.path + "/hooray"
        #expect(mkdir(runtime, 0o755) == 0)
        chmod(runtime, 0o755)
        let paths = try HoorayPaths(environment: ["HOME": "/home/me", "XDG_RUNTIME_DIR": folder.path])
        #expect {
            try paths.checkRuntimeDirectory()
        } throws: { error in
            let text = "\(error)"
            return text.contains("mode 755") && text.contains("chmod 700")
        }
        chmod(runtime, 0o700)
        try paths.checkRuntimeDirectory()
    }
}
