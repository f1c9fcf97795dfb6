import Foundation
import HoorayClient
import HoorayThreads
import Logging

/// hoorayd's side of the spool (``HoorayClient/RequestSpool``): a request that carries a request id
/// runs only once hoorayd has taken its file, and requests left in the spool by a client that gave
/// up waiting, or by a hoorayd killed before it read them, run when the next one starts.
enum SpoolTaking {
    /// How old a file left in the spool must be before a starting hoorayd runs it: older than any
    /// client waits for its answer, so that a client that wrote it just before sending it to this
    /// hoorayd is not beaten to it.
    static let leftAfter: Double = 20

    /// Takes request `requestID` off the spool before it runs.
    ///
    /// - Returns: `nil` when the request may run (it carries no request id, or hoorayd took its
    ///   file); otherwise the answer: it was taken already (it ran once, or its client withdrew it),
    ///   or its id is not one.
    static func take(_ requestID: String?, spool: RequestSpool, logger: Logger) -> ControlResponse? {
        guard let requestID else { return nil }
        guard RequestSpool.isValid(requestID) else {
            return ControlResponse(
                ok: false,
                message:
                    "request_id must be a request id (a UUID: letters, digits and dashes, at most 64), so nothing was done"
            )
        }
        do {
            if try spool.take(requestID) { return nil }
        } catch {
            return ControlResponse(ok: false, message: "the request was not run: \(error)")
        }
        logger.info("request \(requestID) is not in the spool (run already, or withdrawn); not running it")
        return ControlResponse(
            ok: true, message: "request \(requestID) was run already, so it was not run again", duplicate: true)
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
        if answer.duplicate == true { return }
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
