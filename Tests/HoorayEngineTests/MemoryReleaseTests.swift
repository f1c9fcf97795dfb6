import Foundation
import Testing

@testable import HoorayEngine

#if canImport(Glibc)
    import Glibc
#endif

/// What hoorayd gives back after a burst of work: read-only file pages are let go of, and a page
/// that is no longer the file's is never lost.
@Suite struct MemoryReleaseTests {
    /// Resident kilobytes of this process's private read-only file mappings, from smaps.
    static func residentReadOnlyFileKilobytes() throws -> Int {
        let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        var total = 0
        var counted = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, !first.hasSuffix(":") {
                counted = fields.count >= 6 && (fields[1] == "r-xp" || fields[1] == "r--p") && fields[5].hasPrefix("/")
            } else if counted, fields.first == "Rss:", fields.count >= 2, let kilobytes = Int(fields[1]) {
                total += kilobytes
            }
        }
        return total
    }

    @Test func readOnlyFilePagesAreLetGoOfAndComeBackWhenUsed() throws {
        let before = try Self.residentReadOnlyFileKilobytes()
        let released = MemoryRelease.releaseReadOnlyFilePages()
        let after = try Self.residentReadOnlyFileKilobytes()
        #expect(released > 0)
        #expect(after < before, "resident read-only file pages: \(before) kB before, \(after) kB after")
        // The code that runs next is mapped back: this process goes on working.
        let text = String(describing: [1, 2, 3].map { $0 * 2 })
        #expect(text == "[2, 4, 6]")
    }

    @Test func aPageThatIsNoLongerTheFilesIsKept() throws {
        // A private mapping of a file, written and then made read-only: as the dynamic loader does
        // with relocated data. Dropping that page would bring the file's bytes back.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-memory-\(UUID()).bin").path
        defer { unlink(path) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        try Data(repeating: 0x41, count: pageSize * 4).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let mapping = try #require(
            mmap(nil, pageSize * 4, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0), "mmap failed")
        #expect(mapping != MAP_FAILED)
        defer { munmap(mapping, pageSize * 4) }
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        bytes[pageSize] = 0x5A  // the second page becomes this process's own
        _ = bytes[pageSize * 3]  // the fourth stays the file's, resident
        #expect(mprotect(mapping, pageSize * 4, PROT_READ) == 0)

        MemoryRelease.releaseReadOnlyFilePages()

        #expect(bytes[pageSize] == 0x5A, "a written page was dropped and read back from the file")
        #expect(bytes[pageSize + 1] == 0x41)
        #expect(bytes[pageSize * 3] == 0x41)
    }
}
