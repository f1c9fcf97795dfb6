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
/// lets SQLite drop its caches and hands whole free pages back (`malloc_trim`).
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

    /// Lets go of the pages of program code that starting mapped: the executable's and the shared
    /// libraries' read-only, executable mappings.
    ///
    /// Starting runs much code that never runs again — reading the configuration, the database's
    /// migrations, every plugin's activation — and the kernel maps code 64 KiB around each page
    /// touched, so a started hoorayd has most of its 100 MB binary's code resident. These pages
    /// are clean copies of files: unmapped, they stay in the page cache, and the code that runs
    /// again maps its pages back with a minor fault. A mapping with a page of its own (a
    /// debugger's breakpoint, code relocated in place) is left alone, as dropping that page would
    /// lose the change.
    ///
    /// - Returns: How many bytes of mappings were let go of.
    @discardableResult
    static func releaseCodePages() -> Int {
        // Read with plain read(2): /proc files say they are empty, and must be read to the end.
        guard let maps = readWholeFile("/proc/self/maps") else { return 0 }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var released = 0
        for line in String(decoding: maps, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // Private, read-only, executable, and backed by a file.
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
            guard bounds.count == 2, bounds[1] > bounds[0] else { continue }
            let (start, length) = (Int(bounds[0]), Int(bounds[1] - bounds[0]))
            guard !hasPagesOfItsOwn(start: start, length: length, pageSize: pageSize, pagemap: pagemap),
                let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            if madvise(address, length, Int32(MADV_DONTNEED)) == 0 { released += length }
        }
        return released
    }

    /// Whether a mapping holds a resident page that is no longer the file's (bit 63 of its
    /// pagemap entry set, bit 61 clear): one that dropping would lose. Unknown counts as yes.
    private static func hasPagesOfItsOwn(start: Int, length: Int, pageSize: Int, pagemap: Int32) -> Bool {
        let pages = length / pageSize
        var entries = [UInt64](repeating: 0, count: pages)
        let wanted = pages * 8
        let read = entries.withUnsafeMutableBytes { buffer in
            pread(pagemap, buffer.baseAddress, wanted, off_t(start / pageSize * 8))
        }
        guard read == wanted else { return true }
        return entries.contains { entry in
            let value = UInt64(littleEndian: entry)
            return value & (1 << 63) != 0 && value & (1 << 61) == 0
        }
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
