import CLinux
import Foundation
import HoorayStorage

#if canImport(Glibc)
    import Glibc
#endif

/// hoorayd's memory between bursts of work: what it gives back to the system once a burst — the
/// start, a command — is over, so that a resting daemon holds what it uses rather than the most
/// it ever used.
///
/// glibc keeps memory freed by a thread in that thread's arena, and grows the size below which
/// it serves large blocks from its heaps rather than mapping them; a daemon that served one big
/// list would keep the list's size ever after. hoorayd therefore caps the arenas and keeps large
/// blocks mapped (``configureAllocator()``), and after each burst (``releaseAfterBurst(_:)``)
/// lets SQLite drop its caches and hands whole free pages back (`malloc_trim`); after the start and each
/// request it also lets go of the read-only file pages mapped meanwhile (``releaseReadOnlyFilePages()``).
enum MemoryRelease {
    /// At most this many malloc arenas: hoorayd's threads mostly wait, so contention is rare, and
    /// each further arena keeps its own freed memory.
    static let arenas: Int32 = 2
    /// Blocks of this size or more are mapped on their own and unmapped when freed.
    static let mappedBlockBytes: Int32 = 128 * 1024

    /// Sets glibc's allocator up for a long-running daemon; call it first, before threads start.
    static func configureAllocator() {
        _ = mallopt(hooray_M_ARENA_MAX, arenas)
        // A fixed threshold: glibc no longer raises it each time a mapped block is freed.
        _ = mallopt(hooray_M_MMAP_THRESHOLD, mappedBlockBytes)
        _ = mallopt(hooray_M_TRIM_THRESHOLD, mappedBlockBytes)
    }

    /// Lets go of the pages of files mapped read-only that starting and the last request touched:
    /// the code and the read-only data of the executable and of the shared libraries.
    ///
    /// Starting runs much code that never runs again — reading the configuration, the database's
    /// migrations, every plugin's activation — and the kernel maps file pages 64 KiB around each
    /// page touched, so a started hoorayd has most of its 100 MB binary's code resident. These
    /// pages are clean copies of files: unmapped, they stay in the page cache, and what is used
    /// again is mapped back with a minor fault. A page that is no longer the file's — relocated
    /// data, which the dynamic loader wrote before making it read-only, or a debugger's
    /// breakpoint — is kept: dropping it would lose what was written. A read-only mapping cannot
    /// be written meanwhile, so what is seen kept stays kept.
    ///
    /// - Returns: How many resident bytes were let go of.
    @discardableResult
    static func releaseReadOnlyFilePages() -> Int {
        // Read with plain read(2): /proc files say they are empty, and must be read to the end.
        guard let maps = readWholeFile("/proc/self/maps") else { return 0 }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Private, read-only (executable or not), and backed by a file.
            guard fields.count >= 6, fields[1] == "r-xp" || fields[1] == "r--p", fields[5].hasPrefix("/") else {
                continue
            }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0] else { continue }
            released += release(
                start: Int(bounds[0]), pages: Int(bounds[1] - bounds[0]) / pageSize, pageSize: pageSize,
                pagemap: pagemap)
        }
        return released
    }

    /// Drops the pages of one read-only file mapping that are still the file's, in runs between
    /// the pages of its own (pagemap: bit 63 present and bit 61 clear) that must stay.
    ///
    /// - Returns: How many resident bytes were let go of; none when pagemap cannot be read.
    private static func release(start: Int, pages: Int, pageSize: Int, pagemap: Int32) -> Int {
        var entries = [UInt64](repeating: 0, count: pages)
        let wanted = pages * 8
        let count = entries.withUnsafeMutableBytes { buffer in
            pread(pagemap, buffer.baseAddress, wanted, off_t(start / pageSize * 8))
        }
        guard count == wanted else { return 0 }
        var released = 0
        var runStart: Int?
        var runResident = 0
        func dropRun(until end: Int) {
            guard let first = runStart else { return }
            if runResident > 0, let address = UnsafeMutableRawPointer(bitPattern: start + first * pageSize),
                madvise(address, (end - first) * pageSize, Int32(MADV_DONTNEED)) == 0
            {
                released += runResident * pageSize
            }
            runStart = nil
            runResident = 0
        }
        for (index, entry) in entries.enumerated() {
            let value = UInt64(littleEndian: entry)
            let present = value & (1 << 63) != 0
            if present && value & (1 << 61) == 0 {
                dropRun(until: index)
                continue
            }
            if runStart == nil { runStart = index }
            if present { runResident += 1 }
        }
        dropRun(until: pages)
        return released
    }

    /// The whole content of a file, read to its end; `nil` when it cannot be read.
    private static func readWholeFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var content: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return content }
            content.append(contentsOf: chunk[..<count])
        }
    }

    /// Gives back what a burst of work left behind: SQLite's caches, then the allocator's free
    /// pages. It blocks until the database's current accesses end, so call it off the scheduler's
    /// path, once the burst's answer has gone out.
    static func releaseAfterBurst(_ database: HoorayDatabase) {
        database.releaseMemory()
        _ = malloc_trim(0)
    }
}
