/// A view's readings from hoorayd, of which only the newest is shown: a view read again (a change
/// pushed, a search typed) before an older reading answered drops that one's answer, late or failed.
@MainActor
final class LatestReading {
    /// How many readings were started: the newest one's number.
    private var started = 0

    /// Drops the answers of the readings started so far: something changed since they began (a
    /// change the view asked for), and a reading started after it will say so.
    func dropStarted() {
        started += 1
    }

    /// Starts a reading.
    ///
    /// - Parameters:
    ///   - read: Asks hoorayd, off GTK's thread (DaemonLink does its I/O on a thread of its own).
    ///   - show: Runs with the answer, when this reading is still the newest.
    ///   - fail: Runs with what went wrong, when this reading is still the newest.
    func start<Value: Sendable>(
        _ read: @escaping @MainActor () async throws(DaemonLink.Problem) -> Value,
        show: @escaping @MainActor (Value) -> Void, fail: @escaping @MainActor (DaemonLink.Problem) -> Void
    ) {
        started += 1
        let reading = started
        Task { @MainActor in
            do throws(DaemonLink.Problem) {
                let value = try await read()
                guard reading == started else { return }
                show(value)
            } catch {
                guard reading == started else { return }
                fail(error)
            }
        }
    }
}
