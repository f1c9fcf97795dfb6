import CDeflate
import CLinux
import Foundation
import Synchronization

/// The bytes of configuration files as they were when a configuration was loaded, kept deflated.
///
/// hoorayd keeps them while a plugin's list continues in files it left unread, so that reading
/// everything later reads the configuration in force and not one with edits made since (see
/// ``LoadedConfiguration/readingEverything()``). Such files hold long lists of tables that say the
/// same keys again and again: zlib's fastest level makes 100,000 reminders' 13.9 MB about 1 MB, so
/// what the daemon holds at rest for them is some 10 bytes a reminder instead of 139. They are
/// deflated on a thread of their own once loaded, which runs only when the processors are idle, so
/// the start neither waits for it nor shares a processor with it; until then, and for any file zlib
/// cannot make smaller, the bytes are kept as they are.
final class KeptFiles: Sendable {
    private enum Kept {
        /// Not deflated yet.
        case plain([UInt8])
        /// Deflated, from `size` bytes.
        case deflated([UInt8], size: Int)
        /// Kept as they are: zlib could not make them smaller.
        case asRead([UInt8])
    }

    private let files: Mutex<[String: Kept]>

    /// Keeps `files` (path → bytes), and starts deflating them on a thread of their own.
    init(_ files: [String: [UInt8]]) {
        self.files = Mutex(files.mapValues { .plain($0) })
        guard !files.isEmpty else { return }
        Thread.detachNewThread { [self] in
            // Only while nothing else runs: at a restart with 1,000,000 reminders the plan and the
            // database want both processors, and the files can wait.
            _ = hooray_run_this_thread_when_idle()
            deflateAll()
        }
    }

    /// The number of bytes held for the files, deflated or not (for tests and measurements).
    var heldBytes: Int {
        files.withLock { files in
            files.values.reduce(0) { total, kept in
                switch kept {
                case .plain(let bytes), .deflated(let bytes, _), .asRead(let bytes): total + bytes.count
                }
            }
        }
    }

    /// Whether every file is held deflated or could not be made smaller, that is, the thread is done.
    var isSettled: Bool { files.withLock { $0.values.allSatisfy { if case .plain = $0 { false } else { true } } } }

    /// Every file's text as it was read (path → text).
    func texts() -> [String: String] {
        let kept = files.withLock { $0 }
        return kept.compactMapValues { kept in
            switch kept {
            case .plain(let bytes), .asRead(let bytes): String(decoding: bytes, as: UTF8.self)
            // Bytes deflated here always inflate back; should they not, the file is read again from disk.
            case .deflated(let bytes, let size):
                Self.inflate(bytes, size: size).map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }

    private func deflateAll() {
        for path in files.withLock({ Array($0.keys) }) {
            guard case .plain(let bytes)? = files.withLock({ $0[path] }) else { continue }
            let kept = Self.deflate(bytes).map { Kept.deflated($0, size: bytes.count) } ?? .asRead(bytes)
            files.withLock { $0[path] = kept }
        }
    }

    /// The bytes deflated at zlib's fastest level, or `nil` when that is not smaller.
    static func deflate(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        let bound = Int(compressBound(uLong(bytes.count)))
        var status = Z_OK
        // Left uninitialised: only the pages zlib writes become resident, so the bound costs none.
        let output = [UInt8](unsafeUninitializedCapacity: bound) { out, count in
            var length = uLong(bound)
            status = bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(input.count), Z_BEST_SPEED)
            }
            count = status == Z_OK ? Int(length) : 0
        }
        guard status == Z_OK, output.count < bytes.count else { return nil }
        // A copy of its own size, so the bound's buffer is freed (an array of a whole slice would be the
        // same buffer).
        return output.withUnsafeBufferPointer { Array($0) }
    }

    /// Deflated bytes inflated to their `size`, or `nil` when they do not inflate to exactly that.
    static func inflate(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var status = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: size) { out, count in
            var length = uLong(size)
            status = bytes.withUnsafeBufferPointer { input in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
            count = status == Z_OK ? Int(length) : 0
        }
        return status == Z_OK && output.count == size ? output : nil
    }
}
