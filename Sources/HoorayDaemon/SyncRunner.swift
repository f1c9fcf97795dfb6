import Foundation
import HoorayClient
import HoorayEngine
import HoorayStorage
import HooraySync
import HooraySyncFolder
import HoorayThreads
import Logging

/// hoorayd's side of sync (docs/sync.md): after each change it writes what the database recorded
/// into a new segment in this computer's folder, and whenever the folder changes (inotify) it reads
/// the other computers' new segments and folds them in. Nothing polls, except a check a minute
/// while the folder is gone (a disk unplugged).
actor SyncRunner {
    let database: HoorayDatabase
    let engine: Engine
    let credentials: SyncCredentials
    let logger: Logger
    private var folder: SyncFolder?
    /// The folder the configuration names, in use or not (gone, or of another key).
    private var wanted: String?
    private var key: SyncKey?
    private var device: SyncDeviceID?
    private var watcher: FolderWatcher?
    private var problems: [String] = []
    private var lastSent: Date?
    private var lastReceived: Date?
    private var retry: Task<Void, Never>?
    /// Counts the calls of `configure`: one that a later call overtook while it waited gives way.
    private var generation = 0
    /// The segments refused since the key was last set (another key's, or no segment), by path:
    /// said once, tried again only when the key changes or hoorayd starts again.
    private var refused: Set<String> = []
    private nonisolated let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>
    /// How many of its segments this computer lets gather in the folder before it writes a snapshot
    /// in their place (docs/sync.md, "Compaction").
    let compactAfter: Int
    /// The most problems kept for `hooray sync status`.
    static let keptProblems = 20

    init(
        database: HoorayDatabase, engine: Engine, credentials: SyncCredentials, logger: Logger, compactAfter: Int = 64
    ) {
        self.database = database
        self.engine = engine
        self.credentials = credentials
        self.logger = logger
        self.compactAfter = max(1, compactAfter)
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts the runner on the configuration in force, and follows each one put in force after.
    static func start(
        database: HoorayDatabase, engine: Engine, paths: HoorayPaths, state: DaemonState, logger: Logger
    ) -> SyncRunner {
        // HOORAY_SYNC_COMPACT_AFTER: fewer segments before a snapshot, for tests and benchmarks.
        let runner = SyncRunner(
            database: database, engine: engine, credentials: SyncCredentials(paths: paths),
            logger: Logger(label: "sync"),
            compactAfter: state.environment["HOORAY_SYNC_COMPACT_AFTER"].flatMap { Int($0) } ?? 64)
        let home = state.environment["HOME"] ?? ""
        let folder: @Sendable (DaemonConfiguration) -> String? = { $0.sync.folderPath(home: home) }
        state.watchConfiguration { configuration in Task { await runner.configure(folder: folder(configuration)) } }
        Task { await runner.configure(folder: folder(state.configuration)) }
        Task { await runner.run() }
        let changes = engine.changes.subscribe()
        Task {
            for await _ in changes { runner.poke() }
        }
        return runner
    }

    /// Asks for a round of sending and reading.
    nonisolated func poke() { wake.yield() }

    /// Uses `path` as the sync folder (`nil`: sync off), with the key and device id kept here.
    func configure(folder path: String?) async {
        generation += 1
        let mine = generation
        watcher?.stop()
        watcher = nil
        retry?.cancel()
        folder = nil
        wanted = path
        guard let path else { return }
        let key = credentials.load()
        let device = try? await database.syncDevice()
        guard mine == generation else { return }
        guard let key, let device else {
            note("sync is set in the configuration but not set up on this computer: run `hooray sync setup \(path)`")
            return
        }
        let chosen = SyncFolder(path: path)
        do throws(SyncFolder.Problem) {
            try chosen.claim(for: key)
        } catch {
            note(error.description)
            if case .missing = error { retryWhileMissing() }
            return
        }
        if self.key?.check != key.check { refused = [] }
        (folder, self.key, self.device) = (chosen, key, device)
        watcher = FolderWatcher(path: path) { [weak self] in self?.poke() }
        if watcher == nil { logger.warning("cannot watch \(path) for changes; it is read after each change here") }
        logger.info("syncing through \(path)")
        poke()
    }

    /// Sends and reads after each poke, until the daemon stops.
    func run() async {
        for await _ in wakes {
            // Changes close together go out in one segment.
            try? await TaskTimer.sleep(for: .milliseconds(300))
            await send()
            await receive()
        }
    }

    // MARK: Sending

    /// Writes what waits, a segment after another until nothing does.
    private func send() async {
        while await sendSegment() {}
    }

    /// Writes one segment of what waits.
    ///
    /// - Returns: Whether more waits.
    private func sendSegment() async -> Bool {
        guard let folder, let key, let device else { return false }
        do {
            var unsent = try await database.unsentSyncChanges(limit: 5_000)
            // A segment stays well under what a reader takes (a stored value may be large).
            var bytes = 0
            if let over = unsent.firstIndex(where: { entry in
                bytes += (try? JSONEncoder().encode(entry.change).count) ?? 0
                return bytes > SyncSegment.maxBytes / 4
            }) {
                unsent.removeSubrange(max(over, 1)...)
            }
            guard let last = unsent.last else {
                // Nothing waits: a compaction asked for is done now, through the last segment written.
                if await compactPending() {
                    let last = await highestOwnSequence(folder, key: key, device: device)
                    if last > 0 { try await compact(folder, key: key, device: device, through: last) }
                }
                return false
            }
            let sequence = await highestOwnSequence(folder, key: key, device: device) + 1
            try folder.add(SyncSegment(device: device, sequence: sequence, changes: unsent.map(\.change)), key: key)
            try await database.setSyncMetaValue(Data(String(sequence).utf8), for: "sequence")
            var read = await readSegments()
            read[device, default: []].insert(sequence)
            await keep(read)
            try await database.forgetSentSyncChanges(through: last.position)
            lastSent = Date()
            logger.info("wrote segment \(sequence): \(unsent.count) change(s)")
            let more = try await database.unsentSyncChangeCount() > 0
            // After the last segment of what waits when one was asked for (delete-my-data).
            let asked = more ? false : await compactPending()
            if asked || folder.segmentCount(of: device) >= compactAfter {
                try await compact(folder, key: key, device: device, through: sequence)
            }
            return more
        } catch let problem as SyncFolder.Problem {
            note(problem.description)
            if case .missing = problem { retryWhileMissing() }
        } catch {
            note("cannot write to the sync folder: \(error)")
        }
        return false
    }

    /// The highest number this computer used: noted here, in the folder (hoorayd may have stopped
    /// after it wrote a segment and before it noted it), or counted as read anywhere (a snapshot
    /// lists numbers whose segments went). A number is never used twice.
    private func highestOwnSequence(_ folder: SyncFolder, key: SyncKey, device: SyncDeviceID) async -> Int {
        let noted = (try? await database.syncMetaValue("sequence")).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        let read = await readSegments()[device]?.max() ?? 0
        let snapshot = await snapshotsFolded()[device] ?? 0
        return max(noted ?? 0, folder.highestSequence(of: device, key: key), read, snapshot)
    }

    /// Writes a snapshot of everything here, numbered as the last segment written, and removes this
    /// computer's segments it holds: a computer that has not read them, or joins later, folds in the
    /// snapshot instead.
    private func compact(_ folder: SyncFolder, key: SyncKey, device: SyncDeviceID, through sequence: Int) async throws {
        let read = await readSegments()
        // Only what this database holds may go: every segment of its own in the folder folded in
        // here (a database restored from a backup folds in what it wrote since first).
        let own = folder.ownSequences(of: device).filter { $0 <= sequence }
        guard own.allSatisfy({ read[device]?.contains($0) == true }) else { return }
        let snapshot = try await database.syncSnapshot(read: read)
        let sealed = try SyncSegment.sealed(snapshot, device: device, sequence: sequence, key: key)
        try folder.addSnapshot(sealed, device: device, sequence: sequence)
        // Read back as another computer will before anything goes: one too large to read (past
        // 64 MB) or damaged on its way to the disk is removed, and the segments stay.
        let written = SyncFolder.Found(
            device: device, sequence: sequence,
            path: folder.path + "/" + device.rawValue + "/" + SyncSegment.snapshotFileName(sequence: sequence))
        do {
            _ = try SyncSegment.openSnapshot(
                try folder.contents(of: written), with: key, device: device, sequence: sequence)
        } catch {
            try? FileManager.default.removeItem(atPath: written.path)
            note(
                "the snapshot of \(snapshot.records.count) record(s) could not be read back (\(error)); the segments stay"
            )
            return
        }
        try? await database.setSyncMetaValue(Data(), for: "compactPending")
        var folded = await snapshotsFolded()
        folded[device] = sequence
        await keepSnapshotsFolded(folded)
        let removed = folder.removeOwn(device, through: sequence)
        logger.info(
            "wrote snapshot \(sequence) of \(snapshot.records.count) record(s); \(removed) older file(s) removed")
    }

    /// Writes a snapshot once what waits is sent (delete-my-data: the older segments held the
    /// words); kept in the database, so that a restart or a folder away meanwhile does not lose it.
    func compactAfterSending() async {
        try? await database.setSyncMetaValue(Data("1".utf8), for: "compactPending")
        poke()
    }

    private func compactPending() async -> Bool {
        (try? await database.syncMetaValue("compactPending")).map { !$0.isEmpty } ?? false
    }

    // MARK: Reading

    /// Folds in each computer's latest snapshot not folded in yet, and counts the segments it holds as read.
    ///
    /// - Returns: The records that changed.
    private func foldSnapshots(
        _ folder: SyncFolder, key: SyncKey, read: inout [SyncDeviceID: Set<Int>]
    ) async -> Set<SyncRecordKey> {
        guard let all = try? folder.snapshots() else { return [] }
        var done = await snapshotsFolded()
        var folded: Set<SyncRecordKey> = []
        // Each computer's highest snapshot that opens: a refused one (planted, or damaged) does not
        // hide the one below it.
        var settled: Set<SyncDeviceID> = []
        for found in all where !settled.contains(found.device) && !refused.contains(found.path) {
            guard (done[found.device] ?? 0) < found.sequence else {
                settled.insert(found.device)
                continue
            }
            do {
                let snapshot = try SyncSegment.openSnapshot(
                    try folder.contents(of: found), with: key, device: found.device, sequence: found.sequence)
                folded.formUnion(try await database.applySyncSnapshot(snapshot))
                for (device, sequences) in snapshot.read { read[device, default: []].formUnion(sequences) }
                read[found.device, default: []].insert(found.sequence)
                done[found.device] = found.sequence
                settled.insert(found.device)
                if found.device != device { lastReceived = Date() }
            } catch let problem as SyncSegment.Problem {
                if case .cutShort = problem { continue }
                note("\(found.path): \(problem)")
                refused.insert(found.path)
            } catch {
                note("\(found.path) was not folded in: \(error)")
            }
        }
        await keepSnapshotsFolded(done)
        return folded
    }

    private func snapshotsFolded() async -> [SyncDeviceID: Int] {
        guard let data = try? await database.syncMetaValue("snapshots"),
            let stored = try? JSONDecoder().decode([String: Int].self, from: data)
        else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: stored.compactMap { key, value in SyncDeviceID(key).map { ($0, value) } })
    }

    private func keepSnapshotsFolded(_ folded: [SyncDeviceID: Int]) async {
        let stored = Dictionary(uniqueKeysWithValues: folded.map { ($0.key.rawValue, $0.value) })
        guard let data = try? JSONEncoder().encode(stored) else { return }
        try? await database.setSyncMetaValue(data, for: "snapshots")
    }

    private func receive() async {
        guard let folder, let key, let device else { return }
        var read = await readSegments()
        var folded = await foldSnapshots(folder, key: key, read: &read)
        let found: [SyncFolder.Found]
        do {
            let listing = try folder.unread(read: read)
            found = listing.found
            for skipped in listing.skipped { note("\(skipped.name): \(skipped.reason)") }
        } catch {
            note(error.description)
            retryWhileMissing()
            return
        }
        for segment in found where !refused.contains(segment.path) {
            do {
                let opened = try SyncSegment.open(
                    try folder.contents(of: segment), with: key, device: segment.device, sequence: segment.sequence)
                folded.formUnion(try await database.applySyncChanges(opened.changes))
                read[segment.device, default: []].insert(segment.sequence)
                if segment.device != device { lastReceived = Date() }
            } catch let problem as SyncSegment.Problem {
                switch problem {
                case .cutShort:
                    break  // Still arriving: read again when it changes.
                case .newerFormat:
                    note("\(segment.path): \(problem)")
                default:
                    // Not marked read: another key's segment may be this folder's once the right
                    // phrase is given, and a planted file must not hide the real one's number.
                    note("\(segment.path): \(problem)")
                    refused.insert(segment.path)
                }
            } catch {
                note("\(segment.path) was not folded in: \(error)")
            }
        }
        guard !found.isEmpty || !folded.isEmpty else { return }
        await keep(read)
        if !folded.isEmpty {
            logger.info("folded in \(found.count) segment(s) and any snapshot: \(folded.count) record(s) changed")
            await engine.recordsChangedElsewhere(plugins: Set(folded.map(\.plugin)))
        }
    }

    private func readSegments() async -> [SyncDeviceID: Set<Int>] {
        guard let data = try? await database.syncMetaValue("read"),
            let stored = try? JSONDecoder().decode([String: [Int]].self, from: data)
        else { return [:] }
        var read: [SyncDeviceID: Set<Int>] = [:]
        for (device, sequences) in stored {
            if let id = SyncDeviceID(device) { read[id] = Set(sequences) }
        }
        return read
    }

    private func keep(_ read: [SyncDeviceID: Set<Int>]) async {
        let stored = Dictionary(uniqueKeysWithValues: read.map { ($0.key.rawValue, $0.value.sorted()) })
        guard let data = try? JSONEncoder().encode(stored) else { return }
        try? await database.setSyncMetaValue(data, for: "read")
    }

    /// While the folder is gone, looks for it once a minute (nothing can be watched meanwhile).
    private func retryWhileMissing() {
        guard retry == nil || retry?.isCancelled == true else { return }
        retry = Task { [weak self] in
            try? await TaskTimer.sleep(for: .seconds(60))
            guard !Task.isCancelled, let self else { return }
            await self.folderMayBeBack()
        }
    }

    private func folderMayBeBack() async {
        retry = nil
        guard let wanted else { return }
        if FileManager.default.fileExists(atPath: wanted) {
            await configure(folder: wanted)
        } else {
            retryWhileMissing()
        }
    }

    private func note(_ problem: String) {
        if problems.last != problem {
            logger.warning("\(problem)")
            problems.append(problem)
            if problems.count > Self.keptProblems { problems.removeFirst(problems.count - Self.keptProblems) }
        }
    }

    // MARK: Requests

    /// How sync is doing, with the phrase when asked for.
    func status(phrase: Bool, configured: String?) async -> ControlResponse {
        let read = await readSegments()
        let status = SyncStatus(
            folder: configured, device: (try? await database.syncDevice())?.rawValue,
            folderPresent: configured.map { FileManager.default.fileExists(atPath: $0) } ?? false,
            peers: read.sorted { $0.key < $1.key }.map { .init(device: $0.key.rawValue, segments: $0.value.count) },
            unsent: (try? await database.unsentSyncChangeCount()) ?? 0, lastSent: lastSent,
            lastReceived: lastReceived, problems: problems)
        return ControlResponse(ok: true, sync: status, syncPhrase: phrase ? credentials.load()?.phrase : nil)
    }

    /// Sets sync up through `path`: a new key for the first computer, the phrase's for the others.
    ///
    /// Everything logged here is sent again when the key is new to this computer (a folder of other
    /// computers), or with `newDevice`, under a new device id (a computer copied from another, whose
    /// id the other uses too).
    ///
    /// - Parameter configure: Writes `[sync] folder` in the user's configuration and reloads.
    func setup(
        folder path: String, phrase: String?, newDevice: Bool = false,
        configure write: @Sendable (String) async -> ControlResponse
    ) async -> ControlResponse {
        // Nothing is sent or read until this is done and `configure` took the new key and id.
        generation += 1
        folder = nil
        watcher?.stop()
        watcher = nil
        var isFolder: ObjCBool = false
        guard path.hasPrefix("/"), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue
        else {
            return ControlResponse(
                ok: false,
                message:
                    "the folder \(path) is not there; make it (or let Syncthing make it), then run `hooray sync setup` again"
            )
        }
        let chosen = SyncFolder(path: path)
        let key: SyncKey
        if let phrase {
            do throws(SyncKey.PhraseProblem) {
                key = try SyncKey(phrase: phrase)
            } catch {
                return ControlResponse(ok: false, message: "\(error)", invalidValue: "--phrase")
            }
        } else if FileManager.default.fileExists(atPath: path + "/" + SyncFolder.markerName) {
            guard let kept = credentials.load() else {
                return ControlResponse(
                    ok: false,
                    message:
                        "another computer set sync up in \(path) already: give this one its pairing phrase with `hooray sync setup \(path) --phrase PHRASE` (`hooray sync status --phrase` shows it there)",
                    invalidValue: "--phrase")
            }
            key = kept
        } else {
            key = credentials.load() ?? .random()
        }
        do throws(SyncFolder.Problem) {
            try chosen.claim(for: key)
        } catch .anotherKey where phrase != nil {
            return ControlResponse(
                ok: false,
                message:
                    "that phrase is not this folder's: check it against the one `hooray sync status --phrase` shows on the computer that set the folder up",
                invalidValue: "--phrase")
        } catch {
            return ControlResponse(ok: false, message: error.description)
        }
        let kept: String
        do {
            let previous = credentials.load()
            kept = try credentials.store(key)
            let device = try await database.syncDevice()
            // Another set of computers' folder (not a keyring lost and the same phrase given again):
            // none of its segments is read yet here, and everything logged here is sent again.
            let anotherFolder = previous.map { $0.check != key.check } ?? false
            if anotherFolder {
                try await database.setSyncMetaValue(Data("{}".utf8), for: "read")
                refused = []
            }
            if device == nil || anotherFolder {
                let recorded = try await database.startSyncRecording(
                    device: device ?? .random(), keepsHere: await engine.deviceCaches())
                logger.info("sync set up: \(recorded) change(s) of what was logged before are recorded")
            } else if newDevice {
                // The others have what it sent under the id it shared; what waits goes under the new one.
                let new = SyncDeviceID.random()
                try await database.changeSyncDevice(to: new)
                logger.info("this computer's sync id is now \(new.rawValue)")
            }
        } catch {
            return ControlResponse(ok: false, message: "sync could not be set up: \(error)")
        }
        let written = await write(path)
        guard written.ok else { return written }
        await configure(folder: path)
        var answer = await status(phrase: true, configured: path)
        answer.message = "the sync key is kept in \(kept)"
        return answer
    }
}
