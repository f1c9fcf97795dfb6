import Foundation
import HooraySync

/// The sync folder, as a transport keeps it in step: a `hooray-sync.json` that says whose it is,
/// and a folder per computer of the segments it wrote.
///
/// ```text
/// ~/Sync/hooray/
///   hooray-sync.json                              {"check":"…","format":2}
///   3f2a…c1/0000000000000001.seg                  the laptop's segments
///   9b7e…04/0000000000000001.seg                  the desktop's
/// ```
///
/// A computer only ever adds files to its own folder, each written whole under a temporary name and
/// then renamed, and never changes one: the transport never has two versions of a file to choose from.
public struct SyncFolder: Sendable {
    /// The folder.
    public let path: String
    /// The name of the file that says whose folder it is.
    public static let markerName = "hooray-sync.json"

    /// The folder at `path`.
    public init(path: String) {
        self.path = path
    }

    struct Marker: Codable, Equatable {
        var format: Int
        var check: String
    }

    /// Why the folder cannot be used.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// It is not there (a disk unplugged, a share not mounted).
        case missing(String)
        /// Its key is another: another set of computers syncs through it.
        case anotherKey
        /// Its marker is of a newer Hooray.
        case newerFormat(Int)
        /// A file could not be read or written.
        case io(String)
        /// A segment of this number is already there: another computer uses this device's id.
        case sequenceTaken(Int)

        public var description: String {
            switch self {
            case .missing(let path):
                "the sync folder \(path) is not there (a disk unplugged, or a share not mounted); sync waits until it is back"
            case .anotherKey:
                "the sync folder belongs to other computers: its key is not this one's. Give this computer the phrase `hooray sync setup` shows on one of them, or choose another folder"
            case .newerFormat(let format):
                "the sync folder was set up by a newer Hooray (format \(format)); update Hooray on this computer"
            case .io(let why): why
            case .sequenceTaken(let sequence):
                "segment \(sequence) of this computer is in the folder already, not written here: another computer uses this computer's id (a copy of its disk?); run `hooray sync setup FOLDER --new-id` on one of them to give it an id of its own"
            }
        }
    }

    // MARK: The marker

    /// Makes the folder this key's, or checks that it is.
    ///
    /// - Throws: ``Problem/anotherKey`` when it is another key's; ``Problem/missing(_:)`` when the
    ///   folder is not there (it is never made here: a missing folder is often an unplugged disk).
    public func claim(for key: SyncKey) throws(Problem) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path) }
        let markerPath = path + "/" + Self.markerName
        if let data = FileManager.default.contents(atPath: markerPath) {
            if let format = (try? JSONDecoder().decode([String: JSONNumberOrString].self, from: data))?["format"]?
                .number,
                format > SyncSegment.format
            {
                throw .newerFormat(format)
            }
            guard let marker = try? JSONDecoder().decode(Marker.self, from: data) else {
                throw .io("\(markerPath) cannot be read; if it was damaged, remove it and set up sync again")
            }
            guard marker.check == key.check else { throw .anotherKey }
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            try write(try encoder.encode(Marker(format: SyncSegment.format, check: key.check)), to: markerPath)
        } catch {
            throw .io("cannot write \(markerPath): \(error.localizedDescription)")
        }
    }

    // MARK: Writing

    /// Adds a segment to its computer's folder.
    ///
    /// - Throws: ``Problem/sequenceTaken(_:)`` when that number is there already (it is never
    ///   overwritten), ``Problem/missing(_:)``, or ``Problem/io(_:)``.
    public func add(_ segment: SyncSegment, key: SyncKey) throws(Problem) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path) }
        let folder = path + "/" + segment.device.rawValue
        let target = folder + "/" + SyncSegment.fileName(sequence: segment.sequence)
        guard !FileManager.default.fileExists(atPath: target) else { throw .sequenceTaken(segment.sequence) }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch  where FileManager.default.fileExists(atPath: folder) {
        } catch {
            throw .io("cannot make \(folder): \(error.localizedDescription)")
        }
        do {
            try write(Data(try segment.sealed(with: key)), to: target)
        } catch {
            throw .io("cannot write \(target): \(error.localizedDescription)")
        }
    }

    /// Writes a file whole: under a temporary name in the same folder, flushed, then renamed.
    private func write(_ data: Data, to target: String) throws {
        let temporary = target + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: temporary))
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, target) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    // MARK: Reading

    /// A segment found in the folder, not read yet.
    public struct Found: Sendable, Hashable {
        /// Its computer.
        public var device: SyncDeviceID
        /// Its number.
        public var sequence: Int
        /// Its file.
        public var path: String

        /// Names a file of the folder.
        public init(device: SyncDeviceID, sequence: Int, path: String) {
            self.device = device
            self.sequence = sequence
            self.path = path
        }
    }

    /// Something in the folder that is left alone, and why.
    public struct Skipped: Sendable, Hashable {
        /// The file or folder, relative to the sync folder.
        public var name: String
        /// Why.
        public var reason: String
    }

    /// The segments that are not in `read`, in order, and what else is in the folder that is not
    /// Hooray's. This computer's own are among them: a database restored from a backup, or one
    /// that stopped before it noted a segment it wrote, folds in what it wrote since.
    ///
    /// - Parameters:
    ///   - read: The segments read (or written here) already, by computer.
    /// - Throws: ``Problem/missing(_:)`` when the folder is not there.
    public func unread(read: [SyncDeviceID: Set<Int>]) throws(Problem) -> (
        found: [Found], skipped: [Skipped]
    ) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: path) else { throw .missing(path) }
        var found: [Found] = []
        var skipped: [Skipped] = []
        for entry in entries.sorted() {
            if entry == Self.markerName || Self.isTransportOwn(entry) { continue }
            guard let device = SyncDeviceID(entry) else {
                skipped.append(Skipped(name: entry, reason: Self.reason(forStrange: entry)))
                continue
            }
            let folder = path + "/" + entry
            // A link is not followed: the folder holds what the transport brought, nothing else.
            guard Self.isPlain(folder, folder: true), let files = try? manager.contentsOfDirectory(atPath: folder)
            else {
                skipped.append(Skipped(name: entry, reason: "not a folder Hooray can read"))
                continue
            }
            for file in files.sorted() {
                if Self.isTransportOwn(file) || file.contains(".seg.tmp-") || file.contains(".snap.tmp-")
                    || SyncSegment.sequence(ofSnapshotFileName: file) != nil
                {
                    continue
                }
                guard let sequence = SyncSegment.sequence(ofFileName: file) else {
                    skipped.append(Skipped(name: entry + "/" + file, reason: Self.reason(forStrange: file)))
                    continue
                }
                if read[device]?.contains(sequence) == true { continue }
                found.append(Found(device: device, sequence: sequence, path: folder + "/" + file))
            }
        }
        return (found, skipped)
    }

    // MARK: Snapshots

    /// Writes a snapshot into its computer's folder.
    public func addSnapshot(_ sealed: [UInt8], device: SyncDeviceID, sequence: Int) throws(Problem) {
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(path) }
        let target = path + "/" + device.rawValue + "/" + SyncSegment.snapshotFileName(sequence: sequence)
        do {
            try write(Data(sealed), to: target)
        } catch {
            throw .io("cannot write \(target): \(error.localizedDescription)")
        }
    }

    /// Every computer's snapshots, by computer, each computer's highest first.
    public func snapshots() throws(Problem) -> [Found] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: path) else { throw .missing(path) }
        return entries.sorted().flatMap { entry -> [Found] in
            let folder = path + "/" + entry
            guard let device = SyncDeviceID(entry), Self.isPlain(folder, folder: true),
                let files = try? manager.contentsOfDirectory(atPath: folder)
            else { return [] }
            return files.compactMap(SyncSegment.sequence(ofSnapshotFileName:)).sorted(by: >).map { sequence in
                Found(
                    device: device, sequence: sequence,
                    path: folder + "/" + SyncSegment.snapshotFileName(sequence: sequence))
            }
        }
    }

    /// The numbers of `device`'s segments in the folder.
    public func ownSequences(of device: SyncDeviceID) -> [Int] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: path + "/" + device.rawValue)) ?? []
        return files.compactMap(SyncSegment.sequence(ofFileName:))
    }

    /// Removes this computer's segments up to `sequence` and its snapshots before it, now that the
    /// snapshot numbered `sequence` holds what they did.
    ///
    /// - Returns: How many files went.
    @discardableResult
    public func removeOwn(_ device: SyncDeviceID, through sequence: Int) -> Int {
        let folder = path + "/" + device.rawValue
        var removed = 0
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let covered =
                SyncSegment.sequence(ofFileName: file).map { $0 <= sequence }
                ?? SyncSegment.sequence(ofSnapshotFileName: file).map { $0 < sequence } ?? false
            if covered, (try? FileManager.default.removeItem(atPath: folder + "/" + file)) != nil { removed += 1 }
        }
        return removed
    }

    /// How many segments of `device` are in the folder.
    public func segmentCount(of device: SyncDeviceID) -> Int {
        ownSequences(of: device).count
    }

    /// The highest number of `device`'s segments in the folder that opens with `key`; 0 when it has
    /// none. A file planted under a high number without the key does not count.
    public func highestSequence(of device: SyncDeviceID, key: SyncKey) -> Int {
        let folder = path + "/" + device.rawValue
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        // Segments, and snapshots (after a compaction, the latest may be the highest number).
        let numbered =
            files.compactMap { name in SyncSegment.sequence(ofFileName: name).map { ($0, false) } }
            + files.compactMap { name in SyncSegment.sequence(ofSnapshotFileName: name).map { ($0, true) } }
        for (sequence, isSnapshot) in numbered.sorted(by: { $0.0 > $1.0 }).prefix(16) {
            let name =
                isSnapshot ? SyncSegment.snapshotFileName(sequence: sequence) : SyncSegment.fileName(sequence: sequence)
            guard let bytes = try? contents(of: Found(device: device, sequence: sequence, path: folder + "/" + name))
            else { continue }
            let opens =
                isSnapshot
                ? (try? SyncSegment.openSnapshot(bytes, with: key, device: device, sequence: sequence)) != nil
                : (try? SyncSegment.open(bytes, with: key, device: device, sequence: sequence)) != nil
            if opens { return sequence }
        }
        return 0
    }

    /// A segment's bytes, read without following a link and refused when the file is larger than a
    /// segment can be (a file planted to fill the memory).
    public func contents(of found: Found) throws(SyncSegment.Problem) -> [UInt8] {
        // Not blocking: a pipe named like a segment must not hold sync up until someone writes to it.
        let descriptor = open(found.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            if error == ELOOP { throw .notASegment("it is a link") }
            if error == ENOENT { throw .cutShort }  // Moved away meanwhile: looked for again later.
            throw .notASegment("it cannot be opened: \(String(cString: strerror(error)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .notASegment("it is not a file")
        }
        guard status.st_size <= SyncSegment.maxBytes else {
            throw .notASegment("over \(SyncSegment.maxBytes >> 20) MB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }

    /// Whether `path` is a plain file or folder, not a link to one.
    static func isPlain(_ path: String, folder: Bool) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == (folder ? S_IFDIR : S_IFREG)
    }

    /// Whether a name is one the transport keeps for itself (Syncthing's marker, versions and
    /// temporary files; Nextcloud's and Dropbox's).
    static func isTransportOwn(_ name: String) -> Bool {
        name == ".stfolder" || name == ".stversions" || name == ".stignore" || name.hasPrefix(".syncthing.")
            || name.hasPrefix("~syncthing~") || name == ".dropbox" || name.hasPrefix(".~lock")
            || name.hasPrefix(".sync_")
            || name == ".nextcloudsync.log" || name.hasPrefix("._")
    }

    /// Why a name that is no computer's or segment's is left alone.
    static func reason(forStrange name: String) -> String {
        if name.contains(".sync-conflict-") || name.contains("conflicted copy") || name.contains("(conflict") {
            return "a copy the transport made of a conflict; Hooray never writes a file twice, so it is not needed"
        }
        return "not a file Hooray writes"
    }
}

/// A member of a marker that is a number or a string (to read a newer marker's format).
enum JSONNumberOrString: Decodable {
    case number(Int)
    case other

    init(from decoder: any Decoder) throws {
        self = (try? decoder.singleValueContainer().decode(Int.self)).map(JSONNumberOrString.number) ?? .other
    }

    var number: Int? {
        if case .number(let value) = self { return value }
        return nil
    }
}
