import ArgumentParser
import Foundation
import HoorayCLIHost
import HoorayClient
import HoorayCommands
import HoorayEngine
import HoorayStorage
import HoorayTerminal

struct DeleteMyData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-my-data",
        abstract: "Remove everything Hooray keeps about you, and your anonymous id.",
        discussion: """
            Removes your notices, every plugin's data (everything you logged) and your \
            anonymous id, from your keyring too. Your configuration files stay, so configured reminders carry on. On a terminal \
            it asks first; elsewhere it needs --yes. A new anonymous id is made the next time one is needed.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .shortAndLong, help: "Do not ask; delete at once.")
    var yes = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                warn(
                    "hooray delete-my-data: it asks before deleting, but there is no terminal to ask on; "
                        + "run `hooray delete-my-data --yes` to delete without asking. Nothing was deleted.")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            print(
                """
                This removes everything Hooray keeps about you: your notices, every plugin's data
                (everything you logged) and your anonymous id. Your configuration files stay.
                """)
            print("Type \"delete\" to continue: ", terminator: "")
            guard let answer = readLine(), answer.trimmingCharacters(in: .whitespaces).lowercased() == "delete" else {
                print("Nothing was deleted.")
                return
            }
        }
        // While hoorayd runs, it deletes, as the one writer of the database; otherwise this process
        // does: what waits in the spool first (a win typed while hoorayd was stopped is the user's
        // too), then the database.
        let deleted: DeletedData
        if let answer = try Self.askDaemon(session) {
            guard answer.ok, let removed = answer.deleted else {
                if answer.message?.contains("unknown method") == true {
                    throw CommandFailure(
                        message:
                            "the running hoorayd is of an earlier version and cannot delete your data itself; restart it (`systemctl --user restart hooray`) and run `hooray delete-my-data` again. Nothing was deleted"
                    )
                }
                throw CommandFailure(message: answer.message ?? "hoorayd did not delete your data")
            }
            deleted = removed
        } else {
            RequestSpool(paths: session.paths).removeAll()
            deleted = try await session.database().deleteUserData()
        }
        let hadIdentity: Bool
        do {
            hadIdentity = try session.identityVault(plugins: installedPlugins).delete()
        } catch {
            throw CommandFailure(message: "your data was deleted, but the anonymous id was not: \(error)")
        }
        // A running daemon schedules the configured reminders again and forgets what it held.
        let reloaded = (try? session.send(.reload))??.ok == true

        print("Deleted \(deleted.notices) notice(s), \(deleted.occurrences) recorded reminder(s)", terminator: "")
        print(deleted.plugins.isEmpty ? "" : ", the data of \(deleted.plugins.joined(separator: ", "))", terminator: "")
        print(hadIdentity ? " and your anonymous id." : "; there was no anonymous id yet.")
        print("A new anonymous id is made the next time one is needed.")
        if reloaded { print("hoorayd carries on with your configured reminders.") }
        if deleted.synced == true {
            print(
                """
                Your other computers delete it too as the sync folder brings them this change. This \
                computer's earlier segments there give way to a snapshot without your words; what the \
                others wrote stays, sealed with the sync key only your computers have, until each of \
                them compacts its own. To be rid of it at once, take `[sync] folder` out of each one's \
                configuration and empty the folder.
                """)
        }
        if !deleted.wipedFromFiles {
            warn(
                "The deleted text can no longer be read through Hooray, but the database stayed busy, so it may "
                    + "still be in the files of \(session.paths.dataDirectory) for a while. Run "
                    + "`hooray delete-my-data --yes` again shortly to wipe it.")
        }
    }

    /// Asks a running hoorayd to delete the data (`delete_data`), never one that is stopped, which
    /// would do it later, after this command said nothing was deleted.
    ///
    /// - Returns: Its answer; `nil` when no hoorayd runs.
    static func askDaemon(_ session: CLISession) throws -> ControlResponse? {
        let label = "hooray delete-my-data"
        let connection: ControlConnection?
        do {
            connection = try ControlConnection(socketPath: session.paths.controlSocket, timeout: 120)
        } catch {
            warn("\(label): \(error.message)")
            throw ExitCode(error.isBusy ? ExitStatus.busy.rawValue : ExitStatus.failed.rawValue)
        }
        guard let connection else { return nil }
        if connection.peerIsStopped {
            warn(
                "\(label): hoorayd is stopped (by a signal or a debugger), so nothing was deleted. Let it go on or stop it, then try again."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        }
        let answer: ControlConnection.Answer
        do {
            try connection.send(.deleteData)
            // Deleting rewrites the database file (`VACUUM`), which takes as long as the file is large.
            answer = try connection.receive(within: 120)
        } catch {
            warn("\(label): \(error)")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        switch answer {
        case .answered(let response):
            return response
        case .notYet:
            warn(
                "\(label): hoorayd has not answered in 120 s; it may still delete your data. Once it answers (`hooray status`), run `hooray delete-my-data` again: your anonymous id was kept."
            )
            throw ExitCode(ExitStatus.busy.rawValue)
        case .closed:
            warn(
                "\(label): hoorayd closed the connection without answering, so your data may or may not be deleted; run `hooray delete-my-data` again once it answers: your anonymous id was kept."
            )
            throw ExitCode(ExitStatus.failed.rawValue)
        }
    }
}
