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
/// lets SQLite drop its caches and hands whole free pages back (`malloc_trim`). The pages of the
/// binary's code and read-only data are left as they are: they are the page cache's, shared and
/// reclaimed by the kernel when memory is short, and dropping them would only make each request
/// fault them back in.
enum MemoryRelease {
    /// At most this many malloc arenas: each keeps its own freed memory (given back after a burst),
    /// and threads beyond them share one. With two, at a first start with 100,000 reminders the
    /// thread that builds them and the one SQLite writes them on took turns at one arena's lock
    /// (a fifth of the start); with four each has its own, for about 0.1 MB more at rest.
    static let arenas: Int32 = 4
    /// Blocks of this size or more are mapped on their own and unmapped when freed.
    static let mappedBlockBytes: Int32 = 128 * 1024

    /// Sets glibc's allocator up for a long-running daemon; call it first, before threads start.
    static func configureAllocator() {
        _ = mallopt(hooray_M_ARENA_MAX, arenas)
        // A fixed threshold: glibc no longer raises it each time a mapped block is freed.
        _ = mallopt(hooray_M_MMAP_THRESHOLD, mappedBlockBytes)
        _ = mallopt(hooray_M_TRIM_THRESHOLD, mappedBlockBytes)
    }

    /// Gives back what a burst of work left behind: SQLite's caches, then the allocator's free
    /// pages. It blocks until the database's current accesses end, so call it off the scheduler's
    /// path, once the burst's answer has gone out.
    static func releaseAfterBurst(_ database: HoorayDatabase) {
        database.releaseMemory()
        _ = malloc_trim(0)
    }
}
