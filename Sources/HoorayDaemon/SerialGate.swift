/// Runs what it is given one at a time, in the order it comes, however many tasks ask at once:
/// an async lock that suspends the tasks waiting, never a thread.
actor SerialGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every body given before it has finished.
    func run<Result: Sendable>(_ body: @Sendable () async -> Result) async -> Result {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        let result = await body()
        if waiting.isEmpty {
            busy = false
        } else {
            // Handed on: `busy` stays set for the next in line.
            waiting.removeFirst().resume()
        }
        return result
    }
}
