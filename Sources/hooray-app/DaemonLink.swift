import Foundation
import HoorayBasics
import HoorayCalendar
import HoorayClient
import HoorayCommandLine
import HoorayKit
import HoorayText
import Synchronization

/// The app's one way to hoorayd: every request goes through here, over the control socket, as the
/// CLI's do (docs/protocol.md). The app never opens the database. Each function does its socket
/// I/O on a thread of its own, never GTK's, and returns plain values.
final class DaemonLink: Sendable {
    /// What went wrong talking to hoorayd.
    enum Problem: Error, Equatable {
        /// No hoorayd listens on the control socket.
        case notRunning
        /// hoorayd could not be asked, or its answer did not come (it stopped, or was too slow): the
        /// request may have run or not. The message names the problem and the fix.
        case failed(String)
        /// hoorayd answered that it did not do it: a value the user gave that it refuses (`field`
        /// names it as the command line's option does: `<text>`, `--note`, `--ago`, `--photo`, so
        /// that the message shows beside it), or another reason (`field` is `nil`). Nothing was
        /// saved, and hoorayd keeps the request id's answer: a new try is a new request.
        case refused(field: String?, message: String)
        /// hoorayd had run this request already (an earlier try that seemed to fail reached it):
        /// the moment is saved, once.
        case alreadySaved
    }

    /// What Home shows that only hoorayd knows.
    struct Home: Sendable, Equatable {
        /// No moment was logged yet: Home shows the first-run hint, and Log starts pre-filled.
        var isFirstRun: Bool
    }

    /// A moment hoorayd saved.
    struct LoggedMoment: Sendable, Equatable {
        /// Its words, as saved.
        var text: String
        /// The praise it got at once, offline.
        var offlinePraise: String
        /// Its id, for asking after its AI praise.
        var id: String = ""
        /// The day it happened, `YYYY-MM-DD` in the user's time zone: where `moments --day` finds it.
        var day: String = ""
    }

    /// Where a moment's AI praise stands, as `hooray moments --json` tells it (`aiPraise`, `sync`,
    /// `syncError`).
    enum AIPraise: Sendable, Equatable {
        /// Asked for, not answered yet.
        case waiting
        /// The AI service's praise.
        case arrived(String)
        /// The service did not answer well; hoorayd tries again later, and the offline praise stays.
        case failed
        /// AI praise is not configured: the offline praise is the whole answer.
        case off
        /// The moment is gone (deleted meanwhile).
        case gone
    }

    /// The moods a moment may have, as `hooray win --mood` takes them; hoorayd refuses another,
    /// naming the ones it knows.
    static let moods = ["calm", "happy", "proud", "grateful", "hopeful", "relieved", "tired", "anxious", "sad"]

    /// The longest moment text hoorayd takes, in characters.
    static let maxTextLength = TextLimits.text

    /// The built-in plugin whose commands are moments: Home, logging and praise.
    static let momentsPlugin = "wins"
    /// The Home reply's line when no moment was logged yet (Plugins/Wins `home`).
    private static let firstRunLine = "installing the app counts too"

    let environment: [String: String]

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = HoorayPaths.withAbsoluteHome(environment)
    }

    /// Asks hoorayd what Home shows.
    func home() async throws(Problem) -> Home {
        let reply = try await command("home", values: [:], json: false, requestID: nil)
        return Home(isFirstRun: reply.text.contains(Self.firstRunLine))
    }

    /// What the user may add to a moment beyond its words (seed 001 §4.3's optional enrichments).
    struct Details: Sendable, Equatable {
        /// A note to keep with it, or `nil`.
        var note: String?
        /// How long ago it happened, in minutes; 0: just now.
        var minutesAgo = 0
        /// The photos' paths.
        var photos: [String] = []
    }

    /// The furthest back a moment may have happened, in minutes: as `hooray win --ago` takes it.
    static let maxMinutesAgo = 366 * 24 * 60

    /// Logs a moment, as `hooray win TEXT [--mood MOOD] [--note NOTE] [--ago TIME] [--photo FILE]…` does.
    ///
    /// - Parameters:
    ///   - text: What the user did.
    ///   - mood: How they felt, one of ``moods``, or `nil`.
    ///   - details: Its note, time and photos.
    ///   - requestID: The draft's request id: a save tried again after it seemed to fail (hoorayd
    ///     stopped or slow) is run once, however often it reaches hoorayd.
    /// - Returns: The moment as saved, with its praise.
    func log(text: String, mood: String? = nil, details: Details = Details(), requestID: String)
        async throws(Problem) -> LoggedMoment
    {
        var values = ["text": [text]]
        if let mood { values["mood"] = [mood] }
        if let note = details.note { values["note"] = [note] }
        if details.minutesAgo > 0 { values["ago"] = ["\(details.minutesAgo)m"] }
        if !details.photos.isEmpty { values["photo"] = details.photos }
        let reply = try await command("log", values: values, json: true, requestID: requestID)
        guard let praise = reply.json?["offlinePraise"]?.stringValue else {
            throw .failed("hoorayd saved the moment but sent no praise back; see `hooray moments`")
        }
        return LoggedMoment(
            text: reply.json?["text"]?.stringValue ?? text, offlinePraise: praise,
            id: reply.json?["id"]?.stringValue ?? "", day: reply.json?["day"]?.stringValue ?? "")
    }

    /// Asks where a moment's AI praise stands, as `hooray moments --day DAY --json` lists it.
    func aiPraise(of moment: LoggedMoment) async throws(Problem) -> AIPraise {
        let reply = try await command("moments", values: ["day": [moment.day]], json: true, requestID: nil)
        guard let listed = try? reply.json?.decode([PraiseState].self) else {
            throw .failed("hoorayd listed the moments in a form this window does not read; update Hooray")
        }
        guard let state = listed.first(where: { $0.id == moment.id }) else { return .gone }
        if let praise = state.aiPraise { return .arrived(praise) }
        switch state.sync {
        case "local": return .off
        case "pending" where state.syncError != nil: return .failed
        default: return .waiting
        }
    }

    /// A moment as the Moments view lists it: a `hooray moments --json` element.
    struct ListedMoment: Sendable, Equatable, Decodable {
        var id: String
        /// Its words.
        var text: String
        /// How the user felt, by name, or `nil`.
        var mood: String?
        /// The day it happened, in the user's time zone.
        var day: LocalDate
        /// When it happened.
        var happenedAt: Date
        /// Its praise: the AI's when there is some, the offline praise otherwise.
        var praise: String
        /// Whether the user marked it a favourite.
        var favorite: Bool
    }

    /// The user's time zone, the one hoorayd is told for days and times.
    var timeZone: TimeZone { SystemTimeZone(environment: environment).current() }

    /// The newest moments, newest first, as `hooray moments --limit LIMIT [--search WORDS] --json`
    /// lists them: all of them, or those whose words hold `search`.
    func moments(limit: Int, search: String = "") async throws(Problem) -> [ListedMoment] {
        var values = ["limit": [String(limit)]]
        if !search.isEmpty { values["search"] = [search] }
        let reply = try await command("moments", values: values, json: true, requestID: nil)
        guard let listed = try? reply.json?.decode([ListedMoment].self) else {
            throw .failed("hoorayd listed the moments in a form this window does not read; update Hooray")
        }
        return listed
    }

    /// Marks a moment as a favourite, or unmarks it, as `hooray moments fav ID --on` (`--off`) does:
    /// what the user asked for, whatever another window or a terminal did meanwhile.
    ///
    /// - Returns: Whether it is a favourite now.
    func setFavorite(_ id: String, to favorite: Bool, requestID: String) async throws(Problem) -> Bool {
        let reply = try await command(
            "fav", values: ["id": [id]], flags: [favorite ? "on" : "off"], json: false, requestID: requestID)
        return reply.text.hasPrefix("★")
    }

    /// Deletes a moment for good, as `hooray moments delete ID --yes` does.
    func delete(_ id: String, requestID: String) async throws(Problem) {
        _ = try await command("delete", values: ["id": [id]], json: false, requestID: requestID)
    }

    /// Gives a moment new words, as `hooray moments edit ID --text TEXT` does; its time and praise stay.
    func edit(_ id: String, text: String, requestID: String) async throws(Problem) {
        _ = try await command("edit", values: ["id": [id], "text": [text]], json: true, requestID: requestID)
    }

    /// The members of a listed moment that say where its AI praise stands.
    private struct PraiseState: Decodable {
        var id: String
        var aiPraise: String?
        var sync: String
        var syncError: String?
    }

    /// Starts hoorayd as the user's service (`systemctl --user start hooray`).
    ///
    /// - Returns: Why it could not be started, or `nil` once it was.
    func startDaemon() async -> String? {
        await offMainThread {
            // What systemctl says goes to a file, not a pipe: a pipe would be read until every
            // process holding it is gone, and what systemctl starts may keep it open.
            let said = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-app-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: said) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, said.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            let arguments = ["systemctl", "--user", "start", "hooray"]
            var argv = arguments.map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            // systemctl, and what it may start, begin with no signal blocked and every signal's
            // default action: this thread blocks most signals, which a child would otherwise keep
            // (a hoorayd started so would never hear SIGTERM).
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            var everySignal = sigset_t()
            sigfillset(&everySignal)
            posix_spawnattr_setsigdefault(&attributes, &everySignal)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let spawned = posix_spawnp(&pid, "systemctl", &actions, &attributes, &argv, environ)
            guard spawned == 0 else { return "systemctl could not be run (\(String(cString: strerror(spawned))))" }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let exited = status & 0x7f == 0
            guard exited && (status >> 8) & 0xff == 0 else {
                let reason = ((try? String(contentsOf: said, encoding: .utf8)) ?? "")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if !reason.isEmpty { return reason }
                return exited
                    ? "systemctl exited with status \((status >> 8) & 0xff)"
                    : "systemctl was stopped by signal \(status & 0x7f)"
            }
            return nil
        }
    }

    /// Runs a command of a plugin in hoorayd: the moments plugin's unless `plugin` names another.
    func command(
        _ name: String, plugin: String = DaemonLink.momentsPlugin, values: [String: [String]], flags: Set<String> = [],
        json: Bool, requestID: String?
    )
        async throws(Problem)
        -> CommandReply
    {
        let environment = environment
        let response = try await exchange { paths in
            let invocation = CommandInvocation(
                command: name, values: values, flags: flags, json: json,
                environment: CommandEnvironment(
                    timeZoneIdentifier: SystemTimeZone(environment: environment).current().identifier,
                    dataDirectory: paths.dataDirectory, hostVersion: HoorayVersion.current))
            return ControlRequest.command(plugin: plugin, invocation: invocation, requestID: requestID)
        }
        if response.ok, response.duplicate == true { throw .alreadySaved }
        guard response.ok, let reply = response.reply else {
            let message = response.message ?? "hoorayd refused the request without saying why"
            // A photo or screenshot hoorayd cannot keep is no usage mistake (its exit status is 1,
            // not 64), so it is not marked as a refused value: its message names it first.
            let field =
                response.invalidValue ?? ["--photo", "--screenshot"].first { message.hasPrefix($0 + " ") }
            throw .refused(field: field, message: message)
        }
        return reply
    }

    /// Sends the request `make` builds to hoorayd, off GTK's thread, once the runtime folder is
    /// checked, and returns its answer, ok or not.
    func exchange(_ make: @escaping @Sendable (HoorayPaths) throws -> ControlRequest) async throws(Problem)
        -> ControlResponse
    {
        let environment = environment
        let outcome: Result<ControlResponse, Problem> = await offMainThread {
            do {
                let paths = try HoorayPaths(environment: environment)
                try paths.checkRuntimeDirectory()
                guard let response = try Self.send(try make(paths), paths: paths) else { return .failure(.notRunning) }
                return .success(response)
            } catch let error as ControlError {
                return .failure(.failed(error.message))
            } catch {
                return .failure(.failed("\(error)"))
            }
        }
        return try outcome.get()
    }

    /// Request ids whose request this window has kept in the spool: a save tried again under the
    /// same id is only sent again, never kept again, so that hoorayd runs it once.
    private static let kept = Mutex<Set<String>>([])

    /// Sends a request to hoorayd and waits up to 15 s for its answer; one that writes is kept in
    /// the spool first, as `hooray` keeps it (docs/protocol.md, "One writer").
    ///
    /// - Returns: `nil` when no hoorayd listens.
    /// - Throws: ``ControlError`` when the exchange fails, or the request cannot be kept.
    static func send(_ request: ControlRequest, paths: HoorayPaths) throws -> ControlResponse? {
        guard let connection = try ControlConnection(socketPath: paths.controlSocket, timeout: 15) else { return nil }
        let spool = RequestSpool(paths: paths)
        if let id = request.requestID, kept.withLock({ $0.insert(id).inserted }) {
            do {
                try spool.keep(try ControlCoding.encode(request), id: id)
            } catch {
                kept.withLock { _ = $0.remove(id) }
                throw ControlError(message: "\(error), so nothing was saved")
            }
        }
        let answer: ControlConnection.Answer
        do {
            try connection.send(request)
            answer = try connection.receive(within: 15)
        } catch let error as ControlError {
            // A hoorayd of another protocol refused it unread: taken back, and kept anew on a try again.
            if error.requestWasRefused, let id = request.requestID, (try? spool.take(id)) == true {
                kept.withLock { _ = $0.remove(id) }
            }
            throw error
        }
        if case .answered(let response) = answer {
            // Answered, the request is done with: its file is taken back (a daemon too busy to read
            // it never took it, and a try again keeps it anew).
            if let id = request.requestID, (try? spool.take(id)) == true, response.busy == true {
                kept.withLock { _ = $0.remove(id) }
            }
            return response
        }
        let held = request.requestID.map { spool.holds($0) } ?? false
        switch answer {
        case .closed where !held:
            throw ControlError(message: "hoorayd closed the connection without answering; it may or may not have saved")
        case .closed:
            throw ControlError(
                message: "hoorayd closed the connection without answering; what you saved is kept, and it saves it once"
            )
        default:
            throw ControlError(
                message: held
                    ? "hoorayd did not answer in 15 s; what you saved is kept, and it saves it once"
                    : "hoorayd took what you saved but has not answered in 15 s; it saves it once")
        }
    }

    /// Returns once a hoorayd listens on the control socket, however it was started (a terminal,
    /// systemd, another window): the folders are watched with inotify on a thread of its own, never
    /// polled; where they cannot be watched, it looks once a second.
    func waitUntilListening() async {
        let environment = environment
        await offMainThread {
            guard let socket = try? HoorayPaths(environment: environment).controlSocket else { return }
            while !ControlFollower.isListening(socket) {
                if !ControlFollower.waitForSocket(socket) { Thread.sleep(forTimeInterval: 1) }
            }
        }
    }

    /// Calls `changed` on the main actor each time hoorayd says something may have changed (its
    /// `changes`, docs/protocol.md: a win typed in a terminal, AI praise arriving, an edit in
    /// another window), for as long as the app runs: pushed by hoorayd, never polled. Once at the
    /// start of each following too, so a hoorayd that was restarted is read again. When none
    /// listens, it waits (inotify, as ``waitUntilListening()``) for one, on a thread of its own.
    func followChanges(_ changed: @escaping @MainActor @Sendable () -> Void) {
        let environment = environment
        Thread.detachNewThread {
            guard let socket = try? HoorayPaths(environment: environment).controlSocket,
                let request = try? ControlCoding.encode(ControlRequest.changes)
            else { return }
            var pause = 0.5
            while true {
                var heard = false
                let end = try? ControlFollower.follow(line: request, socketPath: socket) { line in
                    guard let answer = try? ControlCoding.decode(ControlResponse.self, from: line), answer.ok else {
                        return false
                    }
                    heard = true
                    Task { @MainActor in changed() }
                    return true
                }
                if heard || end == .notRunning {
                    // hoorayd stopped, or is not there: wait for one to listen (inotify, not polled).
                    pause = 0.5
                    if !ControlFollower.waitForSocket(socket) { Thread.sleep(forTimeInterval: 1) }
                } else {
                    // Refused (an older hoorayd, or too many followers): asked again after 1 s,
                    // then twice as long each time, up to a minute.
                    pause = min(pause * 2, 60)
                    Thread.sleep(forTimeInterval: pause)
                }
            }
        }
    }

    /// Runs `work` on a thread of its own and waits for it without holding the caller's thread.
    private func offMainThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
