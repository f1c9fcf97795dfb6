import ArgumentParser
import HoorayBasics
import HoorayCLIHost
import HoorayClient
import HoorayEngine

extension CLISession {
    /// Sends `request` to hoorayd for `command` (such as `hooray pause`), or says why it could not and
    /// exits: 75 when hoorayd did not answer (the request may still run), 69 when it is not running.
    ///
    /// - Parameter notRunning: What the command says when hoorayd is not running, after its name.
    public func answer(_ request: ControlRequest, for command: String, notRunning: String) throws -> ControlResponse {
        let answer: ControlResponse?
        do {
            answer = try send(request)
        } catch {
            warn("\(command): hoorayd did not answer (it is stopped or very busy): \(error). Try again shortly.")
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        guard let response = answer else {
            warn("\(command): \(notRunning)")
            throw ExitCode(ExitStatus.unavailable.rawValue)
        }
        if response.busy == true {
            warn("\(command): hoorayd is too busy to answer just now; nothing changed. Try again shortly.")
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        return response
    }
}
