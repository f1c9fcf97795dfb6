import Foundation
import HooraySystemTesting
import Testing

/// The `hooray` front door (docs/protocol.md, `run`): the small program users run as `hooray` hands
/// the command line to the running hoorayd, or to the full program (`hooray-cli`) beside it.
@Suite(.timeLimit(.minutes(5)))
struct FrontDoorTests {
    struct PrintedMoment: Decodable {
        let text: String
    }

    func moments(_ fixture: HoorayFixture) async throws -> [PrintedMoment] {
        let output = try await fixture.hooray("moments", "--json")
        #expect(output.status == .exited(0), "\(output.standardError)")
        return try JSONDecoder().decode([PrintedMoment].self, from: Data(output.standardOutput.utf8))
    }

    /// Command lines with a mistake in them, each refused with a usage message.
    static let mistakes: [[String]] = [
        ["win", "Took a walk", "--bogus"],  // an unknown option
        ["win", "Took a walk", "--mood", "grumpy"],  // a value not among the choices
        ["win", "Took a walk", "--ago", "soon"],  // a value that is not one
        ["wn", "Took a walk"],  // an unknown command, with a suggestion
        ["win", "Took a walk", "--json", "--ago"],  // an option without its value
        ["win", "Took a walk", "--config"],  // a global option without its file
    ]

    @Test func badArgumentsGetTheSameWordsAndStatusWithTheDaemonRunningAsWithout() async throws {
        try await HoorayFixture.with { fixture in
            var without: [[String]: ProcessOutput] = [:]
            for words in Self.mistakes {
                let output = try await fixture.hooray(arguments: words)
                #expect(output.status == .exited(64), "\(words): \(output.standardError)")
                #expect(!output.standardError.isEmpty, "\(words)")
                without[words] = output
            }
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            for words in Self.mistakes {
                let output = try await fixture.hooray(arguments: words)
                let alone = try #require(without[words])
                #expect(output.status == alone.status, "\(words): \(output.standardError)")
                #expect(output.standardError == alone.standardError, "\(words)")
                #expect(output.standardOutput == alone.standardOutput, "\(words)")
            }
            #expect(try await moments(fixture).isEmpty)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aWinWithTheDaemonRunningIsPostedByItAndPrintsAsBefore() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let alone = try await fixture.hooray("win", "Watered the plants")
            #expect(alone.status == .exited(0), "\(alone.standardError)")
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))

            let win = try await fixture.hooray("win", "Took a short walk")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardError.isEmpty, "\(win.standardError)")
            // The same first line as the full program printed without the daemon.
            #expect(win.standardOutput.hasPrefix("Moment logged"), "\(win.standardOutput)")
            #expect(
                win.standardOutput.split(separator: "\n").first?.replacingOccurrences(
                    of: "Took a short walk", with: "X")
                    == alone.standardOutput.split(separator: "\n").first?.replacingOccurrences(
                        of: "Watered the plants", with: "X"))
            let shown = await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                try? server.notifications().first { $0.body.contains("Took a short walk") }
            }
            let notification = try #require(shown)
            // hoorayd posted it, not a `hooray` that hosted the plugin itself.
            #expect(notification.hints["sender-pid"]?.integerValue == Int(daemon.pid), "\(notification.hints)")

            // JSON, as the full program prints it.
            let json = try await fixture.hooray("win", "Read a chapter", "--json")
            #expect(json.status == .exited(0), "\(json.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            #expect(object?["text"] as? String == "Read a chapter", "\(json.standardOutput)")

            #expect(
                try await moments(fixture).map(\.text).sorted() == [
                    "Read a chapter", "Took a short walk", "Watered the plants",
                ])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// A small PNG file's first bytes, which is all the plugin checks.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]

    @Test func aRelativePhotoIsTheUsersFileWithTheDaemonRunningAsWithout() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let pictures = fixture.home.appending("Pictures")
            try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
            try Data(Self.png).write(to: URL(fileURLWithPath: pictures + "/dinner.png"))
            let photos = { (words: [String]) async throws -> [String]? in
                let output = try await ProcessRunner.run(
                    HoorayFixture.binDirectory + "/hooray", arguments: words, environment: fixture.environment(),
                    workingDirectory: pictures)
                #expect(output.status == .exited(0), "\(words): \(output.standardError)")
                let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
                return object?["photos"] as? [String]
            }
            let expected = [pictures + "/dinner.png"]
            #expect(try await photos(["win", "Cooked dinner", "--photo", "dinner.png", "--json"]) == expected)

            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            // From another working folder than hoorayd's, and `~/` as the user's home folder.
            #expect(try await photos(["win", "Cooked soup", "--photo", "dinner.png", "--json"]) == expected)
            #expect(try await photos(["win", "Cooked rice", "--photo=~/Pictures/dinner.png", "--json"]) == expected)
            // hoorayd ran both.
            for text in ["Cooked soup", "Cooked rice"] {
                let shown = await pollUntil(timeout: .seconds(20)) { () -> RecordedNotification? in
                    try? server.notifications().first { $0.body.contains(text) }
                }
                let notification = try #require(shown, "\(text)")
                #expect(notification.hints["sender-pid"]?.integerValue == Int(daemon.pid), "\(text)")
            }
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// The front door alone, without the full program beside it: what hoorayd takes works, and the
    /// rest says what is missing.
    @Test func theFrontDoorAloneRunsAWinThroughTheDaemonAndNamesTheMissingFullProgram() async throws {
        try await HoorayFixture.with { fixture in
            let folder = fixture.home.appending("alone")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // A hard link where it can be: no copy open for writing while other tests start programs.
            let program = HoorayFixture.binDirectory + "/hooray"
            if link(program, folder + "/hooray") != 0 {
                try FileManager.default.copyItem(atPath: program, toPath: folder + "/hooray")
            }
            let run = { (words: [String]) in
                try await ProcessRunner.run(folder + "/hooray", arguments: words, environment: fixture.environment())
            }
            let missing = try await run(["win", "Took a short walk"])
            #expect(missing.status == .exited(69), "\(missing.standardError)")
            #expect(missing.standardError.contains("hooray-cli"), "\(missing.standardError)")
            #expect(missing.standardError.contains("reinstall Hooray"), "\(missing.standardError)")

            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            let win = try await run(["win", "Took a short walk"])
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardOutput.hasPrefix("Moment logged"), "\(win.standardOutput)")
            // Help is the full program's.
            let help = try await run(["win", "--help"])
            #expect(help.status == .exited(69), "\(help.standardError)")
            #expect(try await moments(fixture).map(\.text) == ["Took a short walk"])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// How many notifications of the server mention `text`, once at least one does; `nil` when none
    /// came within 30 s.
    func shownOnceThere(_ server: TestNotificationServer, _ text: String) async -> Int? {
        await pollUntil(timeout: .seconds(30)) { () -> Int? in
            let count = (try? server.notifications().filter { $0.body.contains(text) }.count) ?? 0
            return count > 0 ? count : nil
        }
    }

    @Test func aWinForAFrozenDaemonWaitsInTheSpoolAndIsShownOnceAfterSIGCONT() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))

            daemon.send(SIGSTOP)
            let win = try await fixture.hooray("win", "Stretched for a minute")
            #expect(win.status == .exited(75), "\(win.standardError)")
            let note = "your moment is kept, and hoorayd saves it once when it goes on."
            #expect(win.standardError.components(separatedBy: note).count == 2, "\(win.standardError)")
            #expect(win.standardOutput.isEmpty, "\(win.standardOutput)")
            // The front door took its line back; the full program's request waits, once.
            #expect(try fixture.spoolFiles().count == 1)

            // Once it runs again, hoorayd finds the front door's line withdrawn, and runs the full
            // program's request from the spool: one moment, one notification.
            daemon.send(SIGCONT)
            #expect(
                await daemon.waitForOutput(
                    containing:
                        "is not in the spool (withdrawn by its client, taken before a restart, or never kept); not running it",
                    in: .standardError,
                    timeout: .seconds(30)), "\(daemon.standardError)")
            #expect(await shownOnceThere(server, "Stretched for a minute") == 1)
            #expect(await fixture.waitUntilSettled(daemon))
            #expect(try await moments(fixture).filter { $0.text == "Stretched for a minute" }.count == 1)
            #expect(try server.notifications().filter { $0.body.contains("Stretched for a minute") }.count == 1)
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aRequestLeftInTheSpoolByAKilledDaemonRunsOnceWhenTheNextStarts() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            daemon.send(SIGSTOP)
            let win = try await fixture.hooray("win", "Kept through a crash")
            #expect(win.status == .exited(75), "\(win.standardError)")
            #expect(try fixture.spoolFiles().count == 1)
            // Killed while frozen: what it had read of the socket is gone, the spool is not.
            daemon.send(SIGKILL)
            #expect(await daemon.waitForExit(timeout: .seconds(10)) != nil)
            let status = try await fixture.hooray("status")
            #expect(
                status.standardOutput.contains(
                    "Kept for hoorayd: 1 command typed while it did not answer; it runs it once when it starts."),
                "\(status.standardOutput)")
            let next = try await fixture.startDaemon()
            #expect(
                await next.waitForOutput(
                    containing: "left in the spool while hoorayd was away", in: .standardError, timeout: .seconds(60)),
                "\(next.standardError)")
            #expect(await shownOnceThere(server, "Kept through a crash") == 1)
            #expect(try await moments(fixture).filter { $0.text == "Kept through a crash" }.count == 1)
            #expect(try fixture.spoolFiles().isEmpty)
            #expect(await next.stop() == .exited(0))
        }
    }

    /// Connections that fill a stopped hoorayd's queue of connections, so that the next one waits.
    static func fillQueue(of socketPath: String) -> [Int32] {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        var filled: [Int32] = []
        for _ in 0..<4096 {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else {
                close(fd)
                break
            }
            filled.append(fd)
        }
        return filled
    }

    @Test func aStoppedDaemonWithAFullQueueSaysItIsBusyAndNothingRunsElsewhere() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            daemon.send(SIGSTOP)
            let queued = Self.fillQueue(of: fixture.home.appending("runtime/hooray/control.sock"))
            #expect(!queued.isEmpty)
            // Nobody can reach hoorayd: the win is not run beside it, and the user is told to try again.
            let win = try await fixture.hooray("win", "Waited in the queue")
            #expect(win.status == .exited(75), "\(win.standardError)")
            #expect(win.standardError.contains("hoorayd is not taking connections"), "\(win.standardError)")
            #expect(try fixture.spoolFiles().isEmpty)
            for fd in queued { close(fd) }
            daemon.send(SIGCONT)
            #expect(await fixture.waitUntilSettled(daemon))
            let after = try await fixture.hooray("win", "Tried again")
            #expect(after.status == .exited(0), "\(after.standardError)")
            #expect(await shownOnceThere(server, "Tried again") == 1)
            #expect(try await moments(fixture).map(\.text) == ["Tried again"])
            #expect(await daemon.stop() == .exited(0))
        }
    }

    @Test func aClosedStandardInputStillKeepsTheWinOnceWhenTheDaemonIsFrozen() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            let daemon = try await fixture.startDaemon()
            #expect(await fixture.waitUntilSettled(daemon))
            daemon.send(SIGSTOP)
            // `hooray win … <&-`: the connection must not become standard input.
            let win = try await ProcessRunner.run(
                "/bin/sh",
                arguments: ["-c", "exec \"$0\" win 'Closed the door' <&-", HoorayFixture.binDirectory + "/hooray"],
                environment: fixture.environment())
            #expect(win.status == .exited(75), "\(win.standardError)")
            #expect(win.standardError.contains("your moment is kept"), "\(win.standardError)")
            daemon.send(SIGCONT)
            #expect(await shownOnceThere(server, "Closed the door") == 1)
            #expect(await fixture.waitUntilSettled(daemon))
            #expect(try await moments(fixture).filter { $0.text == "Closed the door" }.count == 1)
            #expect(try server.notifications().filter { $0.body.contains("Closed the door") }.count == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }

    /// A stand-in for hoorayd on the control socket: it takes one connection for each of
    /// `conversations`, reads the request's line and answers with the conversation's parts,
    /// pausing `pause` between them, then closes it; after the last it stops listening.
    final class StandIn: Sendable {
        init(socketPath: String, conversations: [[String]], pause: Duration) throws {
            let folder = (socketPath as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
            }
            let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            try #require(bound == 0 && listen(listener, 8) == 0)
            Thread.detachNewThread {
                var listening = true
                defer {
                    if listening {
                        close(listener)
                        unlink(socketPath)
                    }
                }
                for (index, parts) in conversations.enumerated() {
                    let client = accept(listener, nil, nil)
                    guard client >= 0 else { return }
                    var byte: UInt8 = 0
                    while recv(client, &byte, 1, 0) == 1 && byte != 0x0A {}
                    for (index, part) in parts.enumerated() {
                        if index > 0 { Thread.sleep(forTimeInterval: Double(pause.components.seconds)) }
                        _ = part.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                    }
                    // After the last, the stand-in is gone before its client sees the connection end.
                    if index == conversations.count - 1 {
                        close(listener)
                        unlink(socketPath)
                        listening = false
                    }
                    close(client)
                }
            }
        }

        convenience init(socketPath: String, parts: [String], pause: Duration) throws {
            try self.init(socketPath: socketPath, conversations: [parts], pause: pause)
        }
    }

    static let answer =
        #"{"api_version":1,"ok":true,"output":{"status":0,"writes":[{"text":"Moment logged: by the stand-in\n","to":1}]},"reply":{"text":"Moment logged: by the stand-in","warnings":[]}}"#

    @Test func anAnswerThatBeginsBeforeTheDeadlineIsReadWhole() async throws {
        try await HoorayFixture.with { fixture in
            let middle = Self.answer.index(Self.answer.startIndex, offsetBy: 40)
            _ = try StandIn(
                socketPath: fixture.home.appending("runtime/hooray/control.sock"),
                parts: [String(Self.answer[..<middle]), String(Self.answer[middle...]) + "\n"], pause: .seconds(3))
            let win = try await fixture.hooray("win", "Waited for the answer")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardOutput == "Moment logged: by the stand-in\n", "\(win.standardError)")
        }
    }

    @Test func anAnswerCutOffIsNotTakenForACommandLineLeftUnrun() async throws {
        try await HoorayFixture.with { fixture in
            _ = try StandIn(
                socketPath: fixture.home.appending("runtime/hooray/control.sock"),
                parts: [String(Self.answer.prefix(40))], pause: .zero)
            let win = try await fixture.hooray("win", "Cut off")
            // The stand-in never took the line from the spool, so the front door takes it back, and
            // the full program, finding no daemon left, runs it.
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(win.standardOutput.hasPrefix("Moment logged"), "\(win.standardOutput)")
            #expect(try await moments(fixture).filter { $0.text == "Cut off" }.count == 1)
            #expect(try fixture.spoolFiles().isEmpty)
        }
    }

    @Test func aLongAnswerIsPrintedWhole() async throws {
        try await HoorayFixture.with { fixture in
            // Far over what one read or one pipe holds.
            let text = String(repeating: "Long day. ", count: 20_000)
            let answer =
                #"{"api_version":1,"ok":true,"output":{"status":0,"writes":[{"text":""# + text
                + #"\n","to":1}]},"reply":{"text":"","warnings":[]}}"# + "\n"
            _ = try StandIn(
                socketPath: fixture.home.appending("runtime/hooray/control.sock"), parts: [answer], pause: .zero)
            let win = try await fixture.hooray("win", "Had a long day")
            #expect(win.status == .exited(0), "\(win.standardError.prefix(500))")
            #expect(win.standardOutput == text + "\n")
        }
    }

    @Test func aCommandLineHandedBackLateIsWordedWithThePluginsNoun() async throws {
        try await HoorayFixture.with { fixture in
            // The front door gives up after 2 s and takes its line back; the answer, 3 s late, hands
            // the command line back, and the full program's own request is closed unanswered and
            // untaken by a stand-in that then goes away: the full program runs it, and says why.
            _ = try StandIn(
                socketPath: fixture.home.appending("runtime/hooray/control.sock"),
                conversations: [["", #"{"api_version":1,"ok":true,"hand_over":true}"# + "\n"], []],
                pause: .seconds(3))
            let win = try await fixture.hooray("win", "Handed back")
            #expect(win.status == .exited(0), "\(win.standardError)")
            #expect(
                win.standardError.contains("hoorayd stopped without answering, so your moment was saved here."),
                "\(win.standardError)")
            #expect(try await moments(fixture).filter { $0.text == "Handed back" }.count == 1)
            #expect(try fixture.spoolFiles().isEmpty)
        }
    }
}
