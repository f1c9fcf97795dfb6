import Foundation
import HooraySystemTesting
import Testing

/// Following the fix an error message prints, the way a person does: copy the command, paste it into a shell.
///
/// Root ignores permission bits, and CI runs as root: there the permission tests hand the fixture's
/// home to an unprivileged user and run `hooray` and the printed fix as that user, through `setpriv`.
/// As a normal user they run directly.
extension HoorayFixture {
    /// The user and group permission tests run as under root: `nobody`.
    static let unprivilegedID = 65534

    /// Whether permission tests switch to ``unprivilegedID``, because this process is root.
    static var dropsPrivileges: Bool { geteuid() == 0 }

    /// The folder of the built programs as ``unprivilegedID`` can run them.
    ///
    /// The checkout may sit in a folder only root may enter, such as a clone in `mktemp -d`. The
    /// switched user could then start `hooray` (`setpriv` looks it up while still root) but not the
    /// `hooray-cli` it hands over to. Then the programs are linked, or copied, into a folder of their
    /// own, once per test run, removed when the run ends.
    static let userBinDirectory: String = {
        func othersMayEnter(_ path: String) -> Bool {
            var folder = path
            while folder != "/" && !folder.isEmpty {
                var info = stat()
                guard stat(folder, &info) == 0, info.st_mode & S_IXOTH != 0 else { return false }
                folder = (folder as NSString).deletingLastPathComponent
            }
            return true
        }
        guard dropsPrivileges, !othersMayEnter(binDirectory) else { return binDirectory }
        var template = Array("/tmp/hooray-user-bin-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return binDirectory }
        let folder = String(cString: made)
        chmod(folder, 0o755)
        for program in ["hooray", "hooray-cli", "hoorayd"] {
            let source = binDirectory + "/" + program
            let target = folder + "/" + program
            if link(source, target) != 0 { try? FileManager.default.copyItem(atPath: source, toPath: target) }
        }
        userBinFolderToRemove = folder
        atexit {
            if let folder = userBinFolderToRemove { try? FileManager.default.removeItem(atPath: folder) }
        }
        return folder
    }()

    /// The data home for tests of printed fixes: a space and a quote in it check that paths are quoted.
    var awkwardDataHome: String { home.appending("my data's") }

    /// The Hooray data folder under ``awkwardDataHome``.
    var awkwardDataFolder: String { awkwardDataHome + "/hooray" }

    /// The environment with ``awkwardDataHome`` and without a bus, which a switched user could not use.
    var userEnvironment: ProcessEnvironment {
        environment(overriding: ["XDG_DATA_HOME": awkwardDataHome], withoutBus: true)
    }

    /// Gives the whole home to the user permission tests run as; does nothing unless this is root.
    func handOverHome() async throws {
        guard Self.dropsPrivileges else { return }
        let id = "\(Self.unprivilegedID):\(Self.unprivilegedID)"
        let result = try await ProcessRunner.run("/bin/chown", arguments: ["-R", id, home.path])
        try #require(result.status.isSuccess, "chown failed: \(result.standardError)")
    }

    /// Runs a program as the user permission tests run as.
    func runAsUser(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(30)) async throws
        -> ProcessOutput
    {
        guard Self.dropsPrivileges else {
            return try await ProcessRunner.run(
                executable, arguments: arguments, environment: userEnvironment, workingDirectory: home.path,
                timeout: timeout)
        }
        let id = "\(Self.unprivilegedID)"
        return try await ProcessRunner.run(
            "/usr/bin/setpriv",
            arguments: ["--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--inh-caps=-all", executable] + arguments,
            environment: userEnvironment, workingDirectory: home.path, timeout: timeout)
    }

    /// Runs `hooray` with ``userEnvironment`` as the user permission tests run as.
    func hoorayAsUser(_ arguments: String...) async throws -> ProcessOutput {
        try await runAsUser(Self.userBinDirectory + "/hooray", arguments)
    }

    /// Runs `hooray` with ``userEnvironment`` as this process's user.
    func hoorayInAwkwardHome(_ arguments: String...) async throws -> ProcessOutput {
        try await ProcessRunner.run(Self.binDirectory + "/hooray", arguments: arguments, environment: userEnvironment)
    }

    /// Runs a printed command with `/bin/sh -c`, as the user permission tests run as or as this process's user.
    func paste(_ command: String, asUser: Bool) async throws -> ProcessOutput {
        if asUser { return try await runAsUser("/bin/sh", ["-c", command]) }
        return try await ProcessRunner.run(
            "/bin/sh", arguments: ["-c", command], environment: userEnvironment, workingDirectory: home.path)
    }

    /// Gives every file back to this process's user with its permissions open to it, so the home can be removed.
    func restoreAccess() async {
        _ = try? await ProcessRunner.run("/bin/chown", arguments: ["-R", "\(geteuid()):\(getegid())", home.path])
        _ = try? await ProcessRunner.run("/bin/chmod", arguments: ["-R", "u+rwX", home.path])
    }
}

/// The first command an error message prints between backticks: the fix to paste.
func printedFix(in output: ProcessOutput) -> String? {
    let text = output.standardError + output.standardOutput
    guard let open = text.firstIndex(of: "`") else { return nil }
    let rest = text[text.index(after: open)...]
    guard let close = rest.firstIndex(of: "`") else { return nil }
    return String(rest[..<close])
}

/// The folder ``HoorayFixture/userBinDirectory`` made, removed when the test run ends.
nonisolated(unsafe) private var userBinFolderToRemove: String?
