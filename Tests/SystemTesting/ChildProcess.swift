import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How a process ended.
public enum ExitStatus: Sendable, Hashable, CustomStringConvertible {
    /// It called `exit` with this status.
    case exited(Int32)
    /// A signal ended it, such as `SIGTERM` (15) or `SIGKILL` (9).
    case signalled(Int32)

    /// Whether the process exited with status 0.
    public var isSuccess: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let status): "exit status \(status)"
        case .signalled(let signal): "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}

/// The environment a child process starts with.
public struct ProcessEnvironment: Sendable {
    private var base: [String: String]?
    private var overrides: [String: String]
    private var removed: [String]

    /// This process's environment with some variables set and some removed.
    ///
    /// Because a test process may be shared by many suites, name every variable your child depends
    /// on (for example `DBUS_SESSION_BUS_ADDRESS`) instead of relying on what happens to be inherited.
    ///
    /// - Parameters:
    ///   - overriding: Variables to set, replacing inherited values.
    ///   - removing: Variables to leave out.
    public static func inherited(overriding: [String: String] = [:], removing: [String] = []) -> Self {
        Self(base: nil, overrides: overriding, removed: removing)
    }

    /// Exactly these variables and nothing else.
    ///
    /// - Parameter values: The complete environment.
    public static func exactly(_ values: [String: String]) -> Self {
        Self(base: values, overrides: [:], removed: [])
    }

    /// The variables the child will see.
    public func resolved() -> [String: String] {
        var values = base ?? ProcessInfo.processInfo.environment
        values.merge(overrides) { _, new in new }
        for name in removed { values.removeValue(forKey: name) }
        return values
    }
}

/// Which output stream of a child process to look at.
public enum StandardStream: Sendable {
    /// File descriptor 1.
    case standardOutput
    /// File descriptor 2.
    case standardError
}

/// A program started by a test, running alongside it until it exits or is stopped.
///
/// Output on both streams is captured continuously, so a test can wait for a line such as `READY`
/// while the program keeps running, and read everything it printed afterwards. Use ``send(_:toProcessGroup:)``
/// for signals such as `SIGHUP` (reload) or `SIGTERM` (graceful stop), ``stop(gracePeriod:)`` to end
/// it for sure, and ``ProcessRunner/run(_:arguments:environment:workingDirectory:input:timeout:)``
/// for programs that run to completion.
///
/// The program is started with `posix_spawn` rather than Foundation's `Process`, which on Linux
/// passes on the signal mask of the thread that launches it: from a Swift concurrency thread that
/// blocks `SIGTERM`, `SIGHUP` and `SIGINT` in the child, so signal tests would fail mysteriously
/// (swift-corelibs-foundation issue 4772). Here the child starts with no blocked signals and default
/// signal handling, in a process group of its own, and only with its three standard streams open.
///
/// Waiting methods poll at a short interval: this is test infrastructure, where simple waiting with a
/// generous deadline is worth more than a precise wake-up.
public final class ChildProcess: Sendable {
    private let state = CapturedState()
    private let input: InputPipe?

    /// The process identifier; also the id of its process group.
    public let pid: Int32
    /// The program and its arguments, for messages.
    public let commandLine: String

    /// Starts a program.
    ///
    /// - Parameters:
    ///   - executable: An absolute or relative path, or a name looked up on the child's `PATH`.
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The child's environment; inherited by default.
    ///   - workingDirectory: The child's working directory; this process's by default.
    ///   - keepsStandardInputOpen: Connect standard input to a pipe the test can write to and close
    ///     (see ``write(toStandardInput:)``); otherwise it reads from `/dev/null`.
    /// - Throws: ``SystemTestingError/executableNotFound(_:)`` or ``SystemTestingError/launchFailed(executable:reason:)``.
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: ProcessEnvironment = .inherited(),
        workingDirectory: String? = nil,
        keepsStandardInputOpen: Bool = false
    ) throws {
        let variables = environment.resolved()
        let path = try Self.locate(executable, searchPath: variables["PATH"])
        commandLine = ([executable] + arguments).joined(separator: " ")

        let output = try Spawn.pipe(for: path)
        let errors = try Spawn.pipe(for: path)
        let stdin = keepsStandardInputOpen ? try Spawn.pipe(for: path) : nil
        var childEnds = [output.write, errors.write]
        if let stdin { childEnds.append(stdin.read) }
        defer { for descriptor in childEnds { close(descriptor) } }

        let pid: Int32
        do {
            pid = try Spawn.run(
                path: path,
                arguments: [executable] + arguments,
                environment: variables.map { "\($0.key)=\($0.value)" },
                standardInput: stdin?.read,
                standardOutput: output.write,
                standardError: errors.write,
                workingDirectory: workingDirectory
            )
        } catch {
            for descriptor in [output.read, errors.read, stdin?.write].compactMap({ $0 }) { close(descriptor) }
            throw error
        }
        self.pid = pid
        input = stdin.map { InputPipe(descriptor: $0.write) }
        state.startReading(output.read, stream: .standardOutput, pid: pid)
        state.startReading(errors.read, stream: .standardError, pid: pid)
        state.startReaping(pid)
    }

    /// Starts a program on a pseudo-terminal: its standard input, output and error are the terminal,
    /// which is its controlling terminal, in a session of its own.
    ///
    /// What it writes is ``standardOutput`` (standard error is mixed in, as on a screen; the
    /// ``standardError`` property stays empty), and ``write(toStandardInput:)`` types keys.
    ///
    /// - Parameters:
    ///   - executable: An absolute or relative path, or a name looked up on the child's `PATH`.
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The child's environment; inherited by default.
    ///   - terminal: The terminal to run it on.
    /// - Throws: ``SystemTestingError/executableNotFound(_:)`` or ``SystemTestingError/launchFailed(executable:reason:)``.
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: ProcessEnvironment = .inherited(),
        terminal: PseudoTerminal
    ) throws {
        let variables = environment.resolved()
        let path = try Self.locate(executable, searchPath: variables["PATH"])
        commandLine = ([executable] + arguments).joined(separator: " ")
        // Copies of the controller side: the reader closes its own at the end, and the terminal stays
        // open for PseudoTerminal.modes() after the program exits.
        let reading = try terminal.duplicateController()
        let typing: Int32
        do {
            typing = try terminal.duplicateController()
        } catch {
            close(reading)
            throw error
        }
        do {
            pid = try Spawn.run(
                path: path, arguments: [executable] + arguments, environment: variables.map { "\($0.key)=\($0.value)" },
                standardInput: nil, standardOutput: -1, standardError: -1, workingDirectory: nil,
                terminal: terminal.path)
        } catch {
            close(reading)
            close(typing)
            throw error
        }
        input = InputPipe(descriptor: typing)
        // Reading the controller side ends with EIO once the program and all it started have closed
        // the terminal.
        state.startReading(reading, stream: .standardOutput, pid: pid)
        state.withLock { $0.errorEnded = true }
        state.startReaping(pid)
    }

    deinit {
        // A test that forgot to stop its child must not leave it, or anything it started, running.
        send(SIGKILL, toProcessGroup: true)
        input?.close()
    }

    /// Everything the program has written to standard output so far, as UTF-8 text.
    public var standardOutput: String { state.withLock { String(decoding: $0.output, as: UTF8.self) } }

    /// Everything the program has written to standard error so far, as UTF-8 text.
    public var standardError: String { state.withLock { String(decoding: $0.error, as: UTF8.self) } }

    /// How the program ended, or `nil` while it runs.
    public var exitStatus: ExitStatus? { state.withLock { $0.status } }

    /// Whether the program is still running.
    public var isRunning: Bool { exitStatus == nil }

    /// Sends a signal, such as `SIGTERM`, `SIGHUP`, `SIGINT` or `SIGKILL`.
    ///
    /// Does nothing once the program has exited, so a recycled process identifier is never hit.
    ///
    /// - Parameters:
    ///   - signal: The signal number.
    ///   - toProcessGroup: Send it to the program's whole process group, which includes the
    ///     processes it started (unless they moved to a group of their own).
    public func send(_ signal: Int32, toProcessGroup: Bool = false) {
        state.withLock { values in
            // The reaper collects the exit status under this lock, so while it is nil the process
            // identifier still belongs to our child.
            if values.status == nil { _ = kill(toProcessGroup ? -pid : pid, signal) }
        }
    }

    /// Writes text to the program's standard input.
    ///
    /// Requires `keepsStandardInputOpen: true` at launch; otherwise it does nothing.
    ///
    /// - Parameter text: The text, written as UTF-8.
    public func write(toStandardInput text: String) throws {
        try input?.write(Array(text.utf8))
    }

    /// Closes the program's standard input, so it reads end-of-file.
    public func closeStandardInput() {
        input?.close()
    }

    /// Waits until the program exits.
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: How it ended, or `nil` when it was still running at the deadline.
    @discardableResult
    public func waitForExit(timeout: Duration) async -> ExitStatus? {
        await pollUntil(timeout: timeout) { self.exitStatus }
    }

    /// Waits until the program has written `text` to one of its streams.
    ///
    /// - Parameters:
    ///   - text: The text to look for, such as `READY`.
    ///   - stream: The stream to search; standard output by default.
    ///   - timeout: How long to wait.
    /// - Returns: Whether the text appeared before the deadline. It also returns early, with `false`,
    ///   when the program exits without writing it.
    public func waitForOutput(
        containing text: String,
        in stream: StandardStream = .standardOutput,
        timeout: Duration
    ) async -> Bool {
        let found: Bool? = await pollUntil(timeout: timeout) {
            let output = stream == .standardOutput ? self.standardOutput : self.standardError
            if output.contains(text) { return true }
            return self.state.withLock { $0.status != nil && $0.outputEnded && $0.errorEnded } ? false : nil
        }
        return found ?? false
    }

    /// Ends the program: `SIGTERM`, then `SIGKILL` if it is still running after the grace period.
    ///
    /// - Parameter gracePeriod: How long it may take to exit after `SIGTERM`: 30 s by default, since
    ///   a loaded computer can keep a program that stops cleanly off the processor for seconds (CI
    ///   once saw hoorayd with 300 reminders take longer than 5 s).
    /// - Returns: How it ended.
    @discardableResult
    public func stop(gracePeriod: Duration = .seconds(30)) async -> ExitStatus {
        if let status = exitStatus { return status }
        send(SIGTERM)
        if let status = await waitForExit(timeout: gracePeriod) { return status }
        send(SIGKILL, toProcessGroup: true)
        return await waitForExit(timeout: .seconds(10)) ?? .signalled(SIGKILL)
    }

    /// Waits until both output streams reached end-of-file, so the captured output is complete.
    ///
    /// A grandchild that inherited the streams keeps them open; the deadline bounds that case.
    ///
    /// - Parameter timeout: How long to wait.
    public func waitForOutputToEnd(timeout: Duration) async {
        _ = await pollUntil(timeout: timeout) { self.state.withLock { $0.outputEnded && $0.errorEnded } ? true : nil }
    }

    private static func locate(_ executable: String, searchPath: String?) throws -> String {
        if executable.hasPrefix("/") { return executable }
        // Relative to this process's directory, not to the child's working directory.
        if executable.contains("/") { return FileManager.default.currentDirectoryPath + "/" + executable }
        let directories = (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(executable)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw SystemTestingError.executableNotFound(executable)
    }
}

/// The write end of a child's standard input.
private final class InputPipe: @unchecked Sendable {
    // Written to and closed from any thread; the lock makes "closed" final and writes orderly.
    private let lock = NSLock()
    private var descriptor: Int32?

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    func write(_ bytes: [UInt8]) throws {
        try lock.withLock {
            guard let descriptor else { return }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw SystemTestingError.launchFailed(
                        executable: "standard input",
                        reason: String(cString: strerror(errno))
                    )
                }
                offset += written
            }
        }
    }

    func close() {
        lock.withLock {
            if let descriptor { _ = Glibc.close(descriptor) }
            descriptor = nil
        }
    }
}

/// `posix_spawn` with a clean signal state, and the GNU functions Swift's Glibc module does not show.
enum Spawn {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    /// `pipe2` and `posix_spawn_file_actions_addchdir_np` (glibc 2.9 and 2.29), looked up at run time.
    private static let pipe2: Pipe2? = symbol("pipe2")
    private static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), looked up at run time.
    private static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")
    /// glibc's `POSIX_SPAWN_SETSID` (2.26), which Swift's Glibc module does not show.
    private static let setSession: Int32 = 0x80

    /// A C library function Swift's Glibc module does not show, looked up at run time.
    static func symbol<Function>(_ name: String) -> Function? {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }

    /// A pipe whose ends close on `exec`, so no other child inherits them by accident: a stray copy
    /// of a write end would keep its reader from ever seeing end-of-file.
    static func pipe(for executable: String) throws -> (read: Int32, write: Int32) {
        var descriptors: [Int32] = [0, 0]
        let result: Int32
        if let pipe2 {
            result = pipe2(&descriptors, O_CLOEXEC)
        } else {
            result = Glibc.pipe(&descriptors)
            for descriptor in descriptors where result == 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        }
        guard result == 0 else {
            throw SystemTestingError.launchFailed(executable: executable, reason: String(cString: strerror(errno)))
        }
        return (descriptors[0], descriptors[1])
    }

    /// Starts the program and returns its process identifier.
    static func run(
        path: String,
        arguments: [String],
        environment: [String],
        standardInput: Int32?,
        standardOutput: Int32,
        standardError: Int32,
        workingDirectory: String?,
        terminal: String? = nil
    ) throws(SystemTestingError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let terminal {
            // Opened by the leader of a new session (POSIX_SPAWN_SETSID below, applied before these
            // actions), the terminal becomes its controlling terminal, as a login shell's would.
            posix_spawn_file_actions_addopen(&actions, 0, terminal, O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
        } else {
            if let standardInput {
                posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
            } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        }
        // Only its standard streams: descriptors of this process that do not close on exec — such
        // as the socket by which Foundation's `Process` learns that a child it started in this test
        // process exited — would otherwise live on in this child, and hold that news back.
        _ = addCloseFrom?(&actions, 3)
        if let workingDirectory {
            guard let addChdir else {
                throw .launchFailed(executable: path, reason: "this C library cannot set a child's working directory")
            }
            _ = addChdir(&actions, workingDirectory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        sigdelset(&everySignal, SIGKILL)
        sigdelset(&everySignal, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setpgroup(&attributes, 0)
        // A new session is a new process group too, with the same id as the child's.
        let group = terminal == nil ? Int32(POSIX_SPAWN_SETPGROUP) : setSession
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | group))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        // A program a test has just copied is "busy" while a child that another thread of this
        // process forked during the copy still holds the copy's write descriptor, until that child
        // reaches its own exec: microseconds, seconds under load. Go's tests wait it out the same way.
        var busyTries = 0
        while result == ETXTBSY && busyTries < 500 {
            busyTries += 1
            usleep(10_000)
            result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        guard result == 0 else { throw .launchFailed(executable: path, reason: String(cString: strerror(result))) }
        return pid
    }
}

/// What a child process has done so far: its output and, once it ended, its status.
///
/// Shared by the process object, its reader threads and its reaper thread; every access goes
/// through the lock, which is what makes the `@unchecked Sendable` sound.
private final class CapturedState: @unchecked Sendable {
    struct Values {
        var output = Data()
        var error = Data()
        var outputEnded = false
        var errorEnded = false
        var status: ExitStatus?
    }

    private let lock = NSLock()
    private var values = Values()

    func withLock<Result>(_ body: (inout Values) -> Result) -> Result {
        lock.withLock { body(&values) }
    }

    /// Reads a pipe on its own thread until end-of-file, then closes it.
    func startReading(_ descriptor: Int32, stream: StandardStream, pid: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = Data(buffer[0..<count])
                withLock { values in
                    if stream == .standardOutput { values.output.append(chunk) } else { values.error.append(chunk) }
                }
            }
            close(descriptor)
            withLock { values in
                if stream == .standardOutput { values.outputEnded = true } else { values.errorEnded = true }
            }
        }
        thread.name = "child-output-\(pid)"
        thread.start()
    }

    /// Waits for the child on its own thread and records how it ended.
    ///
    /// It waits without reaping first, then reaps and records under the lock: as long as the
    /// status is `nil`, the process identifier cannot have been given to another process.
    func startReaping(_ pid: Int32) {
        let thread = Thread { [self] in
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            withLock { values in
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                let signal = status & 0x7f
                values.status = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            }
        }
        thread.name = "child-reaper-\(pid)"
        thread.start()
    }
}

/// The captured result of a program that ran to completion.
public struct ProcessOutput: Sendable {
    /// How the program ended. When it ran past its timeout it was stopped, and this says how.
    public var status: ExitStatus
    /// Everything written to standard output, as UTF-8 text.
    public var standardOutput: String
    /// Everything written to standard error, as UTF-8 text.
    public var standardError: String
    /// Whether the program ran past its timeout and was stopped.
    public var timedOut: Bool
}

/// Runs programs to completion and captures their output, for tests.
public enum ProcessRunner {
    /// Runs a program with arguments, environment and optional input, and waits for it to finish.
    ///
    /// - Parameters:
    ///   - executable: An absolute or relative path, or a name looked up on the child's `PATH`.
    ///   - arguments: The arguments, without the program name.
    ///   - environment: The child's environment; inherited by default.
    ///   - workingDirectory: The child's working directory; this process's by default.
    ///   - input: Text for standard input, which is then closed; `/dev/null` when `nil`.
    ///   - timeout: How long it may run before it is stopped (`SIGTERM`, then `SIGKILL`).
    /// - Returns: Its exit status and output; `timedOut` is set when it had to be stopped.
    /// - Throws: ``SystemTestingError`` when it cannot be started.
    public static func run(
        _ executable: String,
        arguments: [String] = [],
        environment: ProcessEnvironment = .inherited(),
        workingDirectory: String? = nil,
        input: String? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> ProcessOutput {
        let child = try ChildProcess(
            executable,
            arguments: arguments,
            environment: environment,
            workingDirectory: workingDirectory,
            keepsStandardInputOpen: input != nil
        )
        if let input {
            try? child.write(toStandardInput: input)
            child.closeStandardInput()
        }
        var timedOut = false
        var status = await child.waitForExit(timeout: timeout)
        if status == nil {
            timedOut = true
            status = await child.stop(gracePeriod: .seconds(2))
        }
        await child.waitForOutputToEnd(timeout: .seconds(2))
        return ProcessOutput(
            status: status ?? .signalled(SIGKILL),
            standardOutput: child.standardOutput,
            standardError: child.standardError,
            timedOut: timedOut
        )
    }
}

/// Calls `check` every few milliseconds until it returns a value or the timeout passes.
///
/// - Parameters:
///   - timeout: How long to keep trying.
///   - interval: The pause between tries.
///   - check: Returns the awaited value, or `nil` to keep waiting.
/// - Returns: The first value `check` returned, or `nil` at the deadline.
public func pollUntil<Value>(
    timeout: Duration,
    interval: Duration = .milliseconds(10),
    _ check: () async throws -> Value?
) async rethrows -> Value? {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if let value = try await check() { return value }
        if clock.now >= deadline { return nil }
        try? await Task.sleep(for: interval)
    }
}
