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
        do {
            if try spool.take(requestID) {
                memory.remember(requestID)
                return nil
            }
        } catch {
            return ControlResponse(ok: false, message: "the request was not run: \(error)")
        }
        if memory.contains(requestID) {
            logger.info("request \(requestID) was run already; not running it again")
            return ControlResponse(
                ok: true, message: "request \(requestID) was run already, so it was not run again", duplicate: true)
        }
        logger.info("request \(requestID) is not in the spool (withdrawn by its client, or never kept); not running it")
        return ControlResponse(
            ok: false,
            message:
                "request \(requestID) is not in the spool, so it was not run: keep a request in spool/\(requestID).json before sending it with its request_id (docs/protocol.md, \"One writer\"), or send it without one"
        )
    }

    /// Runs the requests left in the spool, oldest first, through `handle` (which takes each file as
    /// it runs the request); those written less than ``leftAfter`` seconds ago are looked at again
    /// once they are that old, in case their client did not send them here.
    static func runLeftovers(
        spool: RequestSpool, logger: Logger, handle: @Sendable (ControlRequest) async -> ControlResponse
    ) async {
        while true {
            let now = Date().timeIntervalSince1970
            let waiting = spool.waiting()
            var youngest: Double?
            for request in waiting {
                guard request.writtenAt <= now - leftAfter else {
                    youngest = max(youngest ?? request.writtenAt, request.writtenAt)
                    continue
                }
                await runLeftover(request.id, spool: spool, logger: logger, handle: handle)
            }
            guard let youngest else { return }
            do {
                try await TaskTimer.sleep(for: .seconds(max(0.1, youngest + leftAfter - now)))
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
    private let state = Mutex<(ids: Set<String>, order: [String], next: Int)>(([], [], 0))

    func remember(_ id: String) {
        state.withLock { state in
            guard state.ids.insert(id).inserted else { return }
            if state.order.count < Self.capacity {
                state.order.append(id)
            } else {
                state.ids.remove(state.order[state.next])
                state.order[state.next] = id
                state.next = (state.next + 1) % Self.capacity
            }
        }
    }

    func contains(_ id: String) -> Bool { state.withLock { $0.ids.contains(id) } }
}

/// Runs what waits in the spool when asked: at start, after each connection (a request that came in
/// whole may have been the nudge a left file needed), and after a connection was turned away busy
/// (its client may be gone, its request still kept). Never on a timer of its own while the spool is
/// empty, so an idle hoorayd does not wake.
final class LeftoverSweeper: Sendable {
    private let spool: RequestSpool
    private let logger: Logger
    private let state = Mutex<(sweeping: Bool, again: Bool)>((false, false))
    private let handler = Mutex<(@Sendable (ControlRequest) async -> ControlResponse)?>(nil)

    init(spool: RequestSpool, logger: Logger) {
        self.spool = spool
        self.logger = logger
    }

    /// Sets what runs a request, and sweeps once.
    func start(handle: @escaping @Sendable (ControlRequest) async -> ControlResponse) {
        handler.withLock { $0 = handle }
        poke()
    }

    /// Sweeps, unless a sweep is under way (which then looks once more before it ends).
    func poke() {
        let starts = state.withLock { state -> Bool in
            if state.sweeping {
                state.again = true
                return false
            }
            state = (true, false)
            return true
        }
        guard starts, let handle = handler.withLock({ $0 }) else {
            if starts { state.withLock { $0 = (false, false) } }
            return
        }
        let spool = spool
        let logger = logger
        Task {
            while true {
                if !spool.waiting().isEmpty {
                    await SpoolTaking.runLeftovers(spool: spool, logger: logger, handle: handle)
                }
                let done = state.withLock { state -> Bool in
                    if state.again {
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
