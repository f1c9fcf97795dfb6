import Foundation

/// A process that holds a lock on a file, as the kernel lists it in `/proc/locks`.
public struct LockHolder: Sendable, Hashable, CustomStringConvertible {
    /// The process id.
    public let pid: Int32
    /// The program's name from `/proc/PID/comm`, when it could be read.
    public let command: String?

    /// Creates a holder.
    public init(pid: Int32, command: String?) {
        self.pid = pid
        self.command = command
    }

    /// `hoorayd (pid 1234)`, or `pid 1234` when the name is unknown.
    public var description: String {
        command.map { "\($0) (pid \(pid))" } ?? "pid \(pid)"
    }
}

/// Finds who holds locks on files, so that a "locked" message can name the process and the command to stop it.
public enum FileLocks {
    /// The processes other than this one holding a lock on any of `paths`; writers only, unless `anyMode`.
    ///
    /// SQLite readers in WAL mode keep a shared lock for as long as they are open, so only an exclusive
    /// lock says who is in the way of a writer. Holders in another PID namespace are not visible and
    /// are left out.
    ///
    /// - Parameters:
    ///   - paths: The files; missing ones are skipped.
    ///   - anyMode: Include shared (read) locks too.
    /// - Returns: The holders, in the order the kernel lists them, each once.
    public static func holders(of paths: [String], anyMode: Bool = false) -> [LockHolder] {
        var inodes = Set<UInt64>()
        for path in paths {
            var status = stat()
            if stat(path, &status) == 0 { inodes.insert(UInt64(status.st_ino)) }
        }
        // Read to the end: procfs files report no size, and String(contentsOfFile:) then reads one
        // page only, which cuts the table off when many files are locked.
        guard !inodes.isEmpty, let handle = FileHandle(forReadingAtPath: "/proc/locks"),
            let bytes = try? handle.readToEnd()
        else { return [] }
        try? handle.close()
        let table = String(decoding: bytes, as: UTF8.self)
        return pids(in: table, inodes: inodes, anyMode: anyMode, excluding: getpid()).map {
            LockHolder(pid: $0, command: command(of: $0))
        }
    }

    /// The pids holding locks on `inodes` in a `/proc/locks` table.
    ///
    /// A line reads `1: POSIX  ADVISORY  WRITE 17041 fe:00:16220338 0 EOF`: kind, mode, pid and
    /// `major:minor:inode`. Waiting requests (`1: -> POSIX ...`) and open file description locks
    /// (pid -1) name no holder. The inode alone is matched: in a container the device numbers the
    /// kernel lists may differ from those `stat` reports.
    static func pids(in table: String, inodes: Set<UInt64>, anyMode: Bool, excluding: Int32) -> [Int32] {
        var found: [Int32] = []
        for line in table.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 6, fields[1] != "->" else { continue }
            guard anyMode || fields[3] == "WRITE" else { continue }
            guard let pid = Int32(fields[4]), pid > 0, pid != excluding else { continue }
            guard let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }), inodes.contains(inode)
            else { continue }
            if !found.contains(pid) { found.append(pid) }
        }
        return found
    }

    private static func command(of pid: Int32) -> String? {
        guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
