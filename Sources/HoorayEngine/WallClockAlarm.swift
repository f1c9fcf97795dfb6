import CLinux
import Foundation

/// Wakes the scheduler at a wall-clock instant, and whenever the wall clock is set.
///
/// A reminder "at 20:00" must follow the wall clock, not a monotonic clock: after a suspend, or
/// after the clock is corrected, 20:00 is still 20:00. This uses a Linux `timerfd` on
/// `CLOCK_REALTIME` with an absolute deadline and `TFD_TIMER_CANCEL_ON_SET`, so the kernel both
/// fires it at the right wall-clock instant (also right after resume) and reports any
/// discontinuous clock change. With no deadline set the thread blocks in `poll` with no timeout:
/// an idle daemon does not wake up at all.
public final class WallClockAlarm: @unchecked Sendable {
    // @unchecked: the two descriptors are set once in init; timerfd_settime and eventfd writes are
    // thread-safe system calls, and the poll thread is the only reader.

    /// Why the alarm went off.
    public enum Event: Sendable, Equatable {
        /// The deadline was reached.
        case deadline
        /// The wall clock was set (by NTP, by the user, or after a time-zone change of the RTC).
        case clockChanged
    }

    let timer: Int32
    let stop: Int32
    let events: AsyncStream<Event>
    let continuation: AsyncStream<Event>.Continuation

    /// Creates the alarm and starts its thread.
    public init() throws {
        timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard timer >= 0 else { throw AlarmError(reason: String(cString: strerror(errno))) }
        stop = eventfd(0, Int32(EFD_CLOEXEC))
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(16))
        let thread = Thread { [timer, stop, continuation] in
            Self.run(timer: timer, stop: stop, continuation: continuation)
        }
        thread.name = "hooray-alarm"
        thread.start()
        // Arm a far-away deadline so that clock changes are reported even when nothing is due.
        set(deadline: nil)
    }

    /// The alarm's events, in order.
    public var stream: AsyncStream<Event> { events }

    /// Sets the next deadline, replacing the previous one; `nil` means none (clock changes are still reported).
    public func set(deadline: Date?) {
        var spec = itimerspec()
        if let deadline {
            let seconds = max(deadline.timeIntervalSince1970, 1e-3)
            spec.it_value.tv_sec = Int(seconds.rounded(.down))
            spec.it_value.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1e9)
        } else {
            // Far in the future, never reached in practice, so CANCEL_ON_SET stays in force.
            spec.it_value.tv_sec = Int(Int32.max)
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME) | hooray_TFD_TIMER_CANCEL_ON_SET, &spec, nil)
    }

    /// Stops the thread and closes the stream.
    public func shutdown() {
        var one: UInt64 = 1
        _ = write(stop, &one, 8)
    }

    private static func run(timer: Int32, stop: Int32, continuation: AsyncStream<Event>.Continuation) {
        var fds = [
            pollfd(fd: timer, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { break }
            if fds[0].revents != 0 {
                var expirations: UInt64 = 0
                let count = read(timer, &expirations, 8)
                if count < 0 && errno == ECANCELED {
                    continuation.yield(.clockChanged)
                } else if count == 8 {
                    continuation.yield(.deadline)
                }
            }
        }
        continuation.finish()
        close(timer)
        close(stop)
    }
}

/// The alarm could not be created.
public struct AlarmError: Error, Sendable, CustomStringConvertible {
    /// The system's reason.
    public let reason: String
    public var description: String { "cannot create the wall-clock timer: \(reason)" }
}
