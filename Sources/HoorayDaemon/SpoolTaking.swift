import Foundation
import HoorayClient
import HoorayThreads
import Logging
import Synchronization

/// hoorayd's side of the spool (``HoorayClient/RequestSpool``): a request that carries a request id
/// runs only once hoorayd has taken its file, and requests left in the spool by a client that gave
/// up waiting, or by a hoorayd killed before it read them, run when the next one starts.
enum SpoolTaking {
    /// How old a file left in the spool must be before hoorayd runs it unasked: older than any
    /// client waits for its answer, so that a client that wrote it just before sending it to this
    /// hoorayd is not beaten to it.
    static let leftAfter: Double = 20

    /// Takes request `requestID` off the spool before it runs.
    ///
    /// - Returns: `nil` when the request may run (it carries no request id, or hoorayd took its
    ///   file); otherwise the answer: this hoorayd took it already (it ran once; `duplicate`), it
    ///   names no request in the spool (never kept there, or withdrawn by its client), or its id is
    ///   not one.
    static func take(_ requestID: String?, spool: RequestSpool, memory: TakenRequests, logger: Logger)
        -> ControlResponse?
    {
        guard let requestID else { return nil }
        guard RequestSpool.isValid(requestID) else {
            return ControlResponse(
                ok: false,
                message:
                    "request_id must be a request id (a UUID: letters, digits and dashes, at most 64), so nothing was done"
            )
        }
        let outcome: TakenRequests.Outcome
        do {
            outcome = try memory.take(requestID, from: spool)
        } catch {
            return ControlResponse(ok: false, message: "the request was not run: \(error)")
        }
        switch outcome {
        case .taken:
            return nil
        case .handedOver:
            // A front door line handed back unrun when it was taken (by a sweep while its front
            // door was stopped): it is still the full program's to run.
            return ControlResponse(ok: true, handOver: true)
        case .ranAlready:
            logger.info("request \(requestID) was run already; not running it again")
            return ControlResponse(
                ok: true, message: "request \(requestID) was run already, so it was not run again", duplicate: true)
        case .unknown:
            logger.info(
                "request \(requestID) is not in the spool (withdrawn by its client, taken before a restart, or never kept); not running it"
            )
            return ControlResponse(
                ok: false,
                message:
                    "hoorayd has no record of this request, so it did not run it now; it may have run before hoorayd restarted: check before trying again"
            )
        }
    }

    /// Runs the requests left in the spool, oldest first, through `handle` (which takes each file as
    /// it runs the request); those written less than ``leftAfter`` seconds ago are looked at again
    /// once they are that old, in case their client did not send them here.
    static func runLeftovers(
        spool: RequestSpool, logger: Logger, stopped: @Sendable () -> Bool = { false },
        handle: @Sendable (ControlRequest) async -> ControlResponse
    ) async {
        while !stopped() {
            let now = Date().timeIntervalSince1970
            let waiting = spool.waiting()
            // The oldest of the files too young to run yet: it is the next one due.
            var nextDue: Double?
            for request in waiting {
                var writtenAt = request.writtenAt
                if writtenAt > now + 1 {
                    // Written "in the future" (the clock was stepped back): counted from now on.
                    _ = utimes(spool.file(request.id), nil)
                    writtenAt = now
                }
                guard writtenAt <= now - leftAfter else {
                    nextDue = min(nextDue ?? writtenAt, writtenAt)
                    continue
                }
                // Between two requests, never in the middle of one.
                guard !stopped() else { return }
                await runLeftover(request.id, spool: spool, logger: logger, handle: handle)
            }
            guard let nextDue else { return }
            do {
                try await TaskTimer.sleep(for: .seconds(min(leftAfter, max(0.1, nextDue + leftAfter - now))))
            } catch {
                return
            }
        }
    }

    static func runLeftover(
        _ id: String, spool: RequestSpool, logger: Logger,
        handle: @Sendable (ControlRequest) async -> ControlResponse
    ) async {
        guard let line = spool.line(id) else { return }
        guard let request = try? ControlCoding.decode(ControlRequest.self, from: line), request.requestID == id,
            request.writes
        else {
            // Not a request hoorayd can run; kept aside for the user to look at, never run.
            let aside = spool.folder + "/." + id + ".unreadable"
            if rename(spool.file(id), aside) == 0 {
                logger.warning(
                    "the request \(id) left in the spool cannot be read, so it was not run; it is kept in \(aside)")
            }
            return
        }
        let answer = await handle(request)
        if answer.duplicate == true || spool.holds(id) { return }
        if answer.handOver == true {
            logger.warning(
                "a command line left in the spool (request \(id)) needs the terminal it was typed on, so it was not run; type it again"
            )
        } else if answer.ok {
            logger.info("ran request \(id), left in the spool while hoorayd was away")
        } else {
            logger.warning(
                "request \(id), left in the spool while hoorayd was away, was refused: \(answer.message ?? "no reason given")"
            )
        }
    }
}

extension ControlRequest {
    /// Whether the request is one a client keeps in the spool: one that may change what is stored.
    var writes: Bool {
        switch self {
        case .act, .command, .run: true
        default: false
        }
    }
}

/// The request ids this hoorayd took off the spool, the latest few thousand: a request sent again
/// under one of them (a retry that cannot tell whether the first try got through) is answered
/// `duplicate`, not refused as one that was never kept.
final class TakenRequests: Sendable {
    /// How many ids are remembered.
    static let capacity = 4096
    private let state = Mutex<(ids: Set<String>, order: [String], next: Int, handedOver: Set<String>)>(
        ([], [], 0, []))

    /// What came of taking a request off the spool.
    enum Outcome {
        /// This caller took it: it runs now.
        case taken
        /// This hoorayd took it before: it ran once.
        case ranAlready
        /// It is not in the spool, and this hoorayd never took it.
        case unknown
        /// This hoorayd took it and handed it back unrun (a front door line that needs the full
        /// program): it is still to run, by the full program.
        case handedOver
    }

    /// Notes that request `id`, taken, was handed back unrun.
    func handedOver(_ id: String) {
        state.withLock { _ = $0.handedOver.insert(id) }
    }

    /// Takes request `id` off `spool`, remembering it; the take and the memory are one step, so that
    /// two copies of one request read at once are told apart as taken and ran already.
    func take(_ id: String, from spool: RequestSpool) throws(SpoolError) -> Outcome {
        try state.withLock { state throws(SpoolError) -> Outcome in
            if try spool.take(id) {
                Self.remember(id, in: &state)
                return .taken
            }
            if state.handedOver.contains(id) { return .handedOver }
            return state.ids.contains(id) ? .ranAlready : .unknown
        }
    }

    private static func remember(
        _ id: String, in state: inout (ids: Set<String>, order: [String], next: Int, handedOver: Set<String>)
    ) {
        guard state.ids.insert(id).inserted else { return }
        if state.order.count < capacity {
            state.order.append(id)
        } else {
            state.handedOver.remove(state.order[state.next])
            state.ids.remove(state.order[state.next])
            state.order[state.next] = id
            state.next = (state.next + 1) % capacity
        }
    }
}

/// Runs what waits in the spool when asked: at start, after each connection (a request that came in
/// whole may have been the nudge a left file needed), and after a connection was turned away busy
/// (its client may be gone, its request still kept). Never on a timer of its own while the spool is
/// empty, so an idle hoorayd does not wake.
final class LeftoverSweeper: Sendable {
    private let spool: RequestSpool
    private let logger: Logger
    private let handle: @Sendable (ControlRequest) async -> ControlResponse
    private let state = Mutex<(sweeping: Bool, again: Bool, stopped: Bool)>((false, false, false))

    /// - Parameter handle: What runs a request, as the control server's handler does.
    init(
        spool: RequestSpool, logger: Logger, handle: @escaping @Sendable (ControlRequest) async -> ControlResponse
    ) {
        self.spool = spool
        self.logger = logger
        self.handle = handle
    }

    /// Sweeps, unless a sweep is under way (which then looks once more before it ends) or hoorayd
    /// is stopping.
    func poke() {
        let spool = spool
        let logger = logger
        let handle = handle
        state.withLock { state in
            guard !state.stopped else { return }
            if state.sweeping {
                state.again = true
                return
            }
            state.sweeping = true
            state.again = false
            Task {
                while true {
                    if !spool.waiting().isEmpty {
                        await SpoolTaking.runLeftovers(
                            spool: spool, logger: logger, stopped: { self.state.withLock { $0.stopped } },
                            handle: handle)
                    }
                    let done = self.state.withLock { state -> Bool in
                        if state.again && !state.stopped {
                            state.again = false
                            return false
                        }
                        state.sweeping = false
                        return true
                    }
                    if done { return }
                }
            }
        }
    }

    /// Sweeps no more: a sweep under way ends before its next request (a request it is running
    /// runs to its end). hoorayd is stopping, and what waits in the spool is the next hoorayd's.
    func stop() {
        state.withLock { $0.stopped = true }
    }
}
