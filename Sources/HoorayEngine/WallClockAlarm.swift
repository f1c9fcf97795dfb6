import CLinux
import Foundation
import HoorayThreads

/// Wakes the scheduler at a wall-clock instant, and whenever the wall clock is set.
///
/// A reminder "at 20:00" must follow the wall clock, not a monotonic clock: after a suspend, or
/// after the clock is corrected, 20:00 is still 20:00. This uses a Linux `timerfd` on
/// `CLOCK_REALTIME` with an absolute deadline and `TFD_TIMER_CANCEL_ON_SET`, so the kernel both
/// fires it at the right wall-clock instant (also right after resume) and reports any
/// discontinuous clock change. It can also watch the files that hold the system's time zone
/// (with inotify), so a change of zone is noticed at once. With no deadline set the thread blocks
/// in `poll` with no timeout: an idle daemon does not wake up at all.
public final class WallClockAlarm: @unchecked Sendable {
    // @unchecked: the two descriptors are set once in init; timerfd_settime and eventfd writes are
    // thread-safe system calls, and the poll thread is the only reader.

    /// Why the alarm went off.
    public enum Event: Sendable, Equatable {
        /// The deadline was reached.
        case deadline
        /// The wall clock was set (by NTP, by the user, or after a time-zone change of the RTC).
        case clockChanged
        /// A watched time-zone file changed.
        case timeZoneChanged
    }

    let timer: Int32
    let stop: Int32
    let watch: Int32
    /// Why the time zone's folder could not be watched, when it was asked for and could not be
    /// (such as "Too many open files" when the user's inotify instances are used up).
    public let watchProblem: String?
    let events: AsyncStream<Event>
    let continuation: AsyncStream<Event>.Continuation

    /// Creates the alarm and starts its thread.
    ///
    /// - Parameters:
    ///   - directory: A folder to watch for time-zone changes, such as `/etc`; none when `nil`.
    ///   - names: The file names in `directory` whose creation, replacement or removal counts.
    public init(watchingTimeZoneIn directory: String? = nil, names: Set<String> = []) throws {
        timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        guard timer >= 0 else { throw AlarmError(reason: String(cString: strerror(errno))) }
        stop = eventfd(0, Int32(EFD_CLOEXEC))
        var watch: Int32 = -1
        var watchProblem: String?
        if let directory {
            watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
            // A folder that cannot be watched only means zone changes are picked up at the next reload.
            if watch < 0 {
                watchProblem = String(cString: strerror(errno))
            } else if inotify_add_watch(watch, directory, mask) < 0 {
                watchProblem = String(cString: strerror(errno))
                close(watch)
                watch = -1
            }
        }
        self.watch = watch
        self.watchProblem = watchProblem
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(16))
        let thread = Thread { [timer, stop, watch, continuation] in
            nameThisThread("hooray-alarm")
            Self.run(timer: timer, stop: stop, watch: watch, names: names, continuation: continuation)
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

    private static func run(
        timer: Int32, stop: Int32, watch: Int32, names: Set<String>, continuation: AsyncStream<Event>.Continuation
    ) {
        var fds = [
            pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            pollfd(fd: watch, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            for index in fds.indices { fds[index].revents = 0 }
            let ready = poll(&fds, nfds_t(watch >= 0 ? 3 : 2), -1)
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
            if watch >= 0 && fds[2].revents != 0 && changedNames(watch).contains(where: names.contains) {
                continuation.yield(.timeZoneChanged)
            }
        }
        continuation.finish()
        close(timer)
        close(stop)
        if watch >= 0 { close(watch) }
    }

    /// Reads the pending inotify events and returns the file names they concern.
    private static func changedNames(_ watch: Int32) -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(watch, &buffer, buffer.count)
            guard count > 0 else { return names }
            var offset = 0
            // Each event: int32 wd, uint32 mask, uint32 cookie, uint32 len, then len bytes of name.
            while offset + 16 <= count {
                let length = buffer[(offset + 12)..<(offset + 16)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + Int(length))]
                names.append(String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self))
                offset += 16 + Int(length)
            }
        }
    }
}

/// The alarm could not be created.
public struct AlarmError: Error, Sendable, CustomStringConvertible {
    /// The system's reason.
    public let reason: String
    public var description: String { "cannot create the wall-clock timer: \(reason)" }
}
