import CGtk
import Dispatch
import Glibc

/// GTK's main loop and the main actor, on one thread: the process's main thread.
public enum MainLoop {
    /// Whether ``serveMainActor()`` ran.
    @MainActor private static var servesMainActor = false

    /// Lets the main actor's jobs (`Task { @MainActor in … }`, `await MainActor.run { … }`) run
    /// inside GLib's main loop, between GTK's own events, as CoreFoundation's run loop lets them run
    /// on other systems. Call it once on the main thread before the loop runs (the app's
    /// `AdwApplication`); without it they wait until the loop returns.
    @MainActor
    public static func serveMainActor() {
        guard !servesMainActor else { return }
        servesMainActor = true
        let descriptor = _dispatch_get_main_queue_handle_4CF()
        // The descriptor is read empty before the jobs run: a job queued meanwhile makes it readable again.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        g_unix_fd_add(
            descriptor, G_IO_IN,
            { descriptor, _, _ in
                var count: UInt64 = 0
                _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return 1  // G_SOURCE_CONTINUE
            }, nil)
    }

    /// Runs `work` on GTK's thread at the loop's next turn, from any thread. (Not
    /// `g_main_context_invoke`, which runs it on the calling thread whenever that thread can take
    /// the loop's context: while GTK's thread waits, say.)
    ///
    /// - Parameter work: What to do; it may touch widgets.
    public static func invoke(_ work: @escaping @Sendable @MainActor () -> Void) {
        let box = Unmanaged.passRetained(HandlerBox(work)).toOpaque()
        g_idle_add_full(
            G_PRIORITY_DEFAULT,
            { data in
                let box = Unmanaged<HandlerBox<@Sendable @MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue()
                MainActor.assumeIsolated { box.handler() }
                return 0  // G_SOURCE_REMOVE
            }, box, nil)
    }

    /// Turns GLib's main loop on the calling (main) thread until `done` holds or `timeout` passes:
    /// for tests and for waiting on a window to be drawn.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait at most.
    ///   - done: Checked after each turn.
    /// - Returns: Whether `done` held.
    @MainActor
    @discardableResult
    public static func iterate(timeout: Duration, until done: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !done() {
            guard ContinuousClock.now < deadline else { return false }
            if g_main_context_iteration(nil, 0) == 0 { usleep(1000) }
        }
        return true
    }

    /// Runs `work` on GTK's thread once `delay` has passed (a GLib timeout), from any thread.
    ///
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - work: What to do; it may touch widgets.
    public static func after(_ delay: Duration, _ work: @escaping @Sendable @MainActor () -> Void) {
        let box = Unmanaged.passRetained(HandlerBox(work)).toOpaque()
        let (seconds, attoseconds) = delay.components
        let milliseconds = UInt32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { data in
                let box = Unmanaged<HandlerBox<@Sendable @MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue()
                MainActor.assumeIsolated { box.handler() }
                return 0  // G_SOURCE_REMOVE
            }, box, nil)
    }
}
