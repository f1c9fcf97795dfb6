import CHoorayThreads
import Foundation

/// Signals delivered as an `AsyncStream`, read by a thread of its own that blocks in `read(2)`.
///
/// A handler writes each signal's number to a pipe; the thread `hooray-signals` reads it and
/// yields it. Nothing wakes while no signal comes — unlike a Dispatch signal source, which needs
/// Dispatch's worker threads (and their 1 Hz monitor). Create one relay per process.
public final class SignalRelay: Sendable {
    /// Every signal caught, in order.
    public let signals: AsyncStream<Int32>

    /// Catches `signals` from now on and starts the reading thread.
    ///
    /// - Parameter signals: Signal numbers, e.g. `SIGTERM`.
    /// - Throws: `POSIXError` when the pipe or a handler cannot be set up.
    public init(catching signals: [Int32]) throws {
        let descriptor = signals.withUnsafeBufferPointer {
            hooray_signal_pipe($0.baseAddress!, Int32($0.count))
        }
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.signals = stream
        let thread = Thread {
            nameThisThread("hooray-signals")
            var number: UInt8 = 0
            while true {
                let count = read(descriptor, &number, 1)
                if count == 1 {
                    continuation.yield(Int32(number))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            continuation.finish()
        }
        thread.start()
    }
}
