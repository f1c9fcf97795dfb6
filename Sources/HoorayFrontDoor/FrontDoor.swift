// The `hooray` users run: a front door that starts in a millisecond. It hands the command line to
// the running hoorayd over its control socket (method `run`, docs/protocol.md), which reads it with
// the full program's own code and either runs it — a built-in plugin's command that writes and
// needs nothing of the terminal — answering with what to print and the exit status, or hands it
// back untouched. Everything else, and everything when hoorayd is not there or does not answer in
// time, is the full program's (`hooray-cli`), started with `execv` and the very same arguments, so
// that it behaves exactly as it always has.
//
// The command line is kept in the spool before it is sent (docs/protocol.md, "One writer"): hoorayd
// runs it only once it has taken that file, and a front door that waits in vain takes it back
// before the full program starts, so that the line never runs twice and never in two places.
//
// Only Glibc, the Swift standard library and HoorayClient (with FoundationEssentials, whose JSON
// coder is the wire's one): no Foundation, no libcurl, GLib or libnotify, no configuration, no
// database.

import FoundationEssentials
import Glibc
import HoorayBasics
import HoorayClient

/// How long the daemon has to answer before the front door takes its command line back for the
/// full program, in milliseconds; the full program then sends it again, words the wait with the
/// command's own noun and keeps it in the spool for hoorayd (`PluginCommandRunner.answerWait`).
let answerWait = 2000

/// How long in all the front door waits for a daemon that took the command line and is running it
/// (`PluginCommandRunner.longestWait`).
let longestWait = 15

// MARK: Handing over to the full program

/// This program's file: `/proc/self/exe`, else — without `/proc` — the path it was started by
/// when that names a folder (`argv[0]` with a `/`, which glibc keeps as `program_invocation_name`
/// whether or not `CommandLine` could read it), its symbolic links resolved.
func thisProgram() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    if length > 0 { return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "program_invocation_name"),
        let name = symbol.assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self).pointee,
        strchr(name, Int32(UInt8(ascii: "/"))) != nil
    else { return nil }
    guard let resolved = realpath(name, nil) else { return String(cString: name) }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The full program: `hooray-cli` beside this one, else in `../libexec/hooray/`.
func fullProgram() -> String? {
    guard let me = thisProgram(), let slash = me.lastIndex(of: "/") else { return nil }
    let folder = String(me[..<slash])
    let candidates = [folder + "/hooray-cli", folder + "/../libexec/hooray/hooray-cli"]
    return candidates.first { access($0, X_OK) == 0 }
}

/// Runs the full program with the same arguments. Never returns.
func handOver(_ arguments: [[UInt8]]) -> Never {
    guard let program = fullProgram() else {
        let text =
            "hooray: the full hooray program (hooray-cli) is missing beside this one and in ../libexec/hooray/; reinstall Hooray (e.g. `sudo apt install --reinstall hooray` or `make install`).\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        exit(69)
    }
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { word in
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: word.count + 1)
        for (index, byte) in word.enumerated() { copy[index] = CChar(bitPattern: byte) }
        copy[word.count] = 0
        return copy
    }
    if pointers.isEmpty { pointers.append(strdup("hooray")) }
    pointers.append(nil)
    execv(program, pointers)
    let text = "hooray: cannot start \(program): \(String(cString: strerror(errno))); reinstall Hooray.\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(69)
}

// MARK: Where the command line was typed

/// The working folder, where relative paths on the command line start; `nil` when it cannot be
/// read (removed, or too deep) or is not UTF-8, which the full program copes with as it always has.
func workingFolder() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil,
        let folder = String(validating: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    else { return nil }
    return folder.hasPrefix("/") ? folder : nil
}

// MARK: The socket

/// A random request id in the form of a UUID, as the full program makes them.
func requestID() -> String? {
    var bytes = [UInt8](repeating: 0, count: 16)
    let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard bytes.withUnsafeMutableBytes({ read(fd, $0.baseAddress, 16) }) == 16 else { return nil }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    var text = ""
    for (index, byte) in bytes.enumerated() {
        if [4, 6, 8, 10].contains(index) { text += "-" }
        text += String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
    }
    return text
}

/// Writes all of `bytes` to a file or a standard stream.
func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress! + offset, bytes.count - offset) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
    }
    return true
}

/// Writes a line for the user on standard error, and exits with `status`.
func fail(_ text: String, status: Int32) -> Never {
    _ = writeAll(2, Array(("hooray: " + text + "\n").utf8))
    exit(status)
}

// MARK: The front door

/// Opens `/dev/null` on standard input, output or error when one is closed (`hooray … <&-`), so
/// that the connection to hoorayd is not one of them: what is printed must not go to hoorayd.
func openClosedStandardDescriptors() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) < 0 && errno == EBADF {
        let opened = open("/dev/null", O_RDWR)
        if opened >= 0 && opened != descriptor {
            _ = dup2(opened, descriptor)
            close(opened)
        }
    }
}

/// Whether the command line is one hoorayd never takes (hoorayd checks again): `hooray` alone, help,
/// the version, completions, hooray's own commands (`hooray act` among them, which may ask a
/// button's question on the terminal); these go straight to the full program, without waiting for
/// a daemon that may not answer.
func isTheFullProgramsAlone(_ words: [String]) -> Bool {
    guard let first = words.first(where: { $0 != "--json" && $0 != "--no-color" }) else { return true }
    return first.hasPrefix("-") || HostWords.all.contains(first)
        || words.contains { $0 == "--help" || $0 == "-h" || $0 == "--version" || $0.hasPrefix("---") }
}

@main
enum FrontDoor {
    static func main() {
        let start = ContinuousClock.now
        openClosedStandardDescriptors()
        let arguments = ProcessArguments.raw()
        let words = arguments.dropFirst().map { String(validating: $0, as: UTF8.self) }
        // `hooray --version` alone is answered here, as the full program answers it: the one line
        // that needs neither hoorayd nor the full program's start.
        if words.count == 1, words[0] == "--version" {
            exit(writeAll(1, Array((HoorayVersion.current + "\n").utf8)) ? 0 : 74)
        }
        let environment = ProcessInfo.processInfo.environment

        // Words that are not UTF-8, no home folder, no safe runtime folder or socket (the full
        // program says why), no daemon, or another user's: the full program's.
        guard words.allSatisfy({ $0 != nil }), !isTheFullProgramsAlone(words.map { $0! }),
            let paths = try? HoorayPaths(environment: environment),
            let home = try? HoorayPaths.homeFolder(environment), let here = workingFolder(),
            (try? paths.checkRuntimeDirectory()) != nil, (try? paths.checkControlSocket()) != nil,
            let id = requestID(),
            let connection = try? ControlConnection(socketPath: paths.controlSocket, timeout: answerWait / 1000)
        else { handOver(arguments) }

        let terminal = environment["TERM"]
        let caller = FrontDoorCaller(
            timeZone: environment["TZ"], localtime: environment["HOORAY_LOCALTIME"],
            color: isatty(1) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && terminal != "dumb",
            interactive: isatty(0) == 1, dataDirectory: paths.dataDirectory, workingDirectory: here, home: home,
            version: HoorayVersion.current)
        guard
            let request = try? ControlCoding.encode(
                RunRequest(arguments: words.map { $0! }, caller: caller, requestID: id))
        else { handOver(arguments) }
        // Kept before it is sent; a spool that cannot be written is the full program's to name.
        let spool = RequestSpool(paths: paths)
        guard (try? spool.keep(request, id: id)) != nil else { handOver(arguments) }
        // Takes the line back: `true` when hoorayd has not taken it (and now never will), so the full
        // program may run the command line.
        func withdraw() -> Bool { (try? spool.take(id)) ?? false }

        // A daemon that turns the connection away (it is busy) answers before reading: read what came.
        if !connection.send(line: request), errno == EAGAIN || errno == EWOULDBLOCK {
            // The request's line is not whole (its newline is the last byte sent): the daemon runs
            // nothing of it, and the full program sends its own.
            _ = withdraw()
            handOver(arguments)
        }

        // Once it has begun, the answer is read to its newline whatever the wait (up to
        // `longestWait`, for a daemon stopped while it writes): an answer cut off there, or by the
        // connection's end, is `closed`.
        connection.answerRest = .seconds(longestWait)
        let left = Duration.milliseconds(answerWait) - (ContinuousClock.now - start)
        var line = (try? connection.receiveLine(within: Double(max(left, .zero) / .milliseconds(1)) / 1000)) ?? .closed
        if line != .notYet || !withdraw() {
            // A daemon that took the line is waited for; one that has not is left, and the full
            // program goes on without it (it was taken back above).
            if line == .notYet {
                let waited = ContinuousClock.now - start
                let rest = Duration.seconds(longestWait) - waited
                line =
                    (try? connection.receiveLine(within: Double(max(rest, .zero) / .milliseconds(1)) / 1000)) ?? .closed
            }
            switch line {
            case .answered(let text):
                guard let answer = try? ControlCoding.decode(RunAnswer.self, from: text) else {
                    if withdraw() { handOver(arguments) }
                    fail(
                        "hoorayd's answer could not be read, and it may have run the command; check before typing it again.",
                        status: 1)
                }
                // A daemon of another version ran nothing: the full program runs the command line.
                guard answer.apiVersion == controlAPIVersion else {
                    _ = withdraw()
                    handOver(arguments)
                }
                if let output = answer.output {
                    // Answered, the line is done with: one a daemon of an earlier version ran without
                    // taking it must not be run again by a later start.
                    _ = withdraw()
                    for entry in output.writes { _ = writeAll(entry.to == 1 ? 1 : 2, Array(entry.text.utf8)) }
                    exit(output.status)
                }
                // Handed back, or busy: nothing was run; the full program runs the command line.
                _ = withdraw()
                handOver(arguments)
            case .notYet:
                fail(
                    "hoorayd took the command but has not answered in \(longestWait) s (it is stopped or very busy); it runs it once when it goes on. `hooray status` says when it answers again.",
                    status: 75)
            case .closed:
                if withdraw() { handOver(arguments) }
                fail(
                    "hoorayd stopped while it was running the command, so it may or may not have been done; check before typing it again.",
                    status: 1)
            }
        }
        // No answer within `answerWait`, and the line taken back unrun: the full program's.
        handOver(arguments)
    }
}
