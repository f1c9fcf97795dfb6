// The `hooray` users run: a front door that starts in a millisecond. It hands the command line to
// the running hoorayd over its control socket (method `run`, docs/protocol.md), which reads it with
// the full program's own code and either runs it — a built-in plugin's command that writes and
// needs nothing of the terminal — answering with what to print and the exit status, or hands it
// back untouched. Everything else, and everything when hoorayd is not there or does not answer in
// time, is the full program's (`hooray-cli`), started with `execv` and the very same arguments, so
// that it behaves exactly as it always has.
//
// Only Glibc and the Swift standard library: no Foundation, no libcurl, GLib or libnotify, no
// configuration, no database.

import Glibc
import HoorayBasics

/// How long the daemon has to answer before the full program takes over, in milliseconds; the
/// full program then waits on (for a daemon that runs but is slow) or runs the command itself,
/// as it does for a request of its own (`PluginCommandRunner.answerWait`).
let answerWait: Int64 = 2000

/// The longest answer read, as the full program's limit.
let maxAnswerBytes = 256 << 20

// MARK: The command line, byte for byte

/// The arguments as the kernel has them (argv[0] included): `CommandLine` may be empty under
/// `LD_PRELOAD` tools such as libfaketime.
func rawArguments() -> [[UInt8]] {
    var bytes: [UInt8] = []
    let fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC)
    if fd >= 0 {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        close(fd)
    }
    var words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
    if words.last == [] { words.removeLast() }
    if words.isEmpty {
        words = (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
        }
    }
    return words
}

func variable(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

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

/// Runs the full program with the same arguments; `extra` are variables that tell it where the
/// front door left a request. Never returns.
func handOver(_ arguments: [[UInt8]], _ extra: [(String, String)] = []) -> Never {
    guard let program = fullProgram() else {
        let text =
            "hooray: the full hooray program (hooray-cli) is missing beside this one and in ../libexec/hooray/; reinstall Hooray (e.g. `sudo apt install --reinstall hooray` or `make install`).\n"
        _ = text.withCString { write(2, $0, strlen($0)) }
        exit(69)
    }
    for (name, value) in extra { setenv(name, value, 1) }
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

// MARK: Where hoorayd listens (as HoorayPaths and CLISession.checkEnvironment say)

func isAbsolute(_ path: String?) -> Bool { path?.hasPrefix("/") == true }

/// The working folder, where relative paths on the command line start; `nil` when it cannot be
/// read (removed, or too deep) or is not UTF-8, which the full program copes with as it always has.
func workingFolder() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil,
        let folder = String(validating: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    else { return nil }
    return isAbsolute(folder) ? folder : nil
}

func homeFolder() -> String? {
    if let home = variable("HOME"), isAbsolute(home) { return home }
    if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
        let home = String(cString: directory)
        if isAbsolute(home) { return home }
    }
    return nil
}

/// The data folder; `nil` when the full program is to say that no home folder is known.
func dataDirectory() -> String? {
    if let dataHome = variable("XDG_DATA_HOME"), isAbsolute(dataHome) { return dataHome + "/hooray" }
    return homeFolder().map { $0 + "/.local/share/hooray" }
}

/// The control socket; `nil` when there is no safe runtime folder (the full program says why) or
/// none at all (no hoorayd).
func controlSocket() -> String? {
    if let runtime = variable("XDG_RUNTIME_DIR"), isAbsolute(runtime) {
        // XDG_RUNTIME_DIR a real folder of this user or root, sticky if others may write in it; its
        // `hooray` folder this user's alone; the socket made by this user.
        var base = stat()
        var folder = stat()
        var socket = stat()
        guard lstat(runtime, &base) == 0, base.st_mode & S_IFMT == S_IFDIR,
            base.st_uid == geteuid() || base.st_uid == 0, base.st_mode & 0o022 == 0 || base.st_mode & S_ISVTX != 0,
            lstat(runtime + "/hooray", &folder) == 0, folder.st_mode & S_IFMT == S_IFDIR,
            folder.st_uid == geteuid(), folder.st_mode & 0o077 == 0,
            lstat(runtime + "/hooray/control.sock", &socket) == 0, socket.st_uid == geteuid()
        else { return nil }
        return runtime + "/hooray/control.sock"
    }
    var temporary = variable("TMPDIR").flatMap { isAbsolute($0) ? $0 : nil } ?? "/tmp"
    while temporary.count > 1 && temporary.hasSuffix("/") { temporary.removeLast() }
    let folder = (temporary == "/" ? "" : temporary) + "/hooray-\(geteuid())"
    // The shared fallback folder is used only when it is this user's alone: a real folder, not a
    // symbolic link, owned by this user, mode 700.
    var info = stat()
    guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(),
        info.st_mode & 0o077 == 0
    else { return nil }
    return folder + "/control.sock"
}

// MARK: JSON, just what the request and the answer need

enum JSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}

func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

struct JSONReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func literal(_ word: String, _ value: JSON) -> JSON? {
        let wanted = Array(word.utf8)
        guard index + wanted.count <= bytes.count, Array(bytes[index..<index + wanted.count]) == wanted else {
            return nil
        }
        index += wanted.count
        return value
    }

    mutating func value() -> JSON? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [String: JSON] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard case .string(let key)? = value() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value() else { return nil }
                members[key] = member
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { return nil }
                index += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSON] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { return nil }
                index += 1
                return .array(elements)
            }
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default:
            let start = index
            while index < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[index]) { index += 1 }
            return Double(String(decoding: bytes[start..<index], as: UTF8.self)).map(JSON.number)
        }
    }

    mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
        else { return nil }
        index += 4
        return value
    }

    mutating func string() -> JSON? {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return .string(String(decoding: out, as: UTF8.self)) }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { return nil }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                out += Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
            default: out.append(escape)
            }
        }
        return nil
    }
}

// MARK: The socket

func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}

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

func connectTo(_ path: String) -> Int32? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    // A stopped daemon whose queue of connections is full, or one that reads no more of a long
    // command line, makes connect and send wait: not past the answer's wait.
    var timeout = timeval(tv_sec: Int(answerWait / 1000), tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    // The process listening must be this user's (SO_PEERCRED: struct ucred, pid, uid, gid), else
    // nothing is sent: the full program says whose socket it is.
    var credentials: (pid: pid_t, uid: uid_t, gid: gid_t) = (0, 0, 0)
    var size = socklen_t(MemoryLayout<(pid_t, uid_t, gid_t)>.size)
    guard connected == 0, getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0,
        credentials.uid == geteuid()
    else {
        close(fd)
        return nil
    }
    return fd
}

func writeAll(_ fd: Int32, _ bytes: [UInt8], socket: Bool) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { raw in
            socket
                ? send(fd, raw.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                : write(fd, raw.baseAddress! + offset, bytes.count - offset)
        }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        offset += count
    }
    return true
}

enum Received {
    /// The answer's line, without its newline.
    case line([UInt8])
    /// Nothing came before the deadline.
    case notYet
    /// The daemon closed the connection, or cut its answer off: it may have run the command.
    case closed
}

/// How long an answer that has begun may take to arrive whole, in milliseconds: the full
/// program's longest wait (`PluginCommandRunner.longestWait`).
let answerRest: Int64 = 15000

/// Reads the answer line, waiting until `deadline` (monotonic milliseconds) for it to begin. Once
/// a byte has come the daemon is writing its answer, and it is read to its newline whatever the
/// deadline (up to ``answerRest`` more, for a daemon stopped while it writes): an answer cut off
/// there, or by the connection's end, is `closed`, never a command line left unrun.
func receive(_ fd: Int32, until deadline: Int64) -> Received {
    var buffer: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var limit = deadline
    while true {
        if let newline = buffer.firstIndex(of: 0x0A) { return .line(Array(buffer[..<newline])) }
        guard buffer.count <= maxAnswerBytes else { return .closed }
        let left = max(0, limit - monotonicMilliseconds())
        var wanted = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&wanted, 1, Int32(clamping: left))
        if ready < 0 && errno == EINTR { continue }
        guard ready > 0 else { return ready == 0 && buffer.isEmpty ? .notYet : .closed }
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, 64 * 1024, 0) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        guard count > 0 else { return .closed }
        if buffer.isEmpty { limit = max(limit, monotonicMilliseconds() + answerRest) }
        buffer += chunk[0..<count]
    }
}

/// The longest answer handed to the full program in a variable; a longer one goes in a file.
let longestAnswerInVariable = 64 * 1024

/// A file that holds `bytes`, read from its start, in the folder of `socketPath` (the user's own),
/// and removed from the folder at once; its descriptor is left open to the programs started.
func unlinkedFile(holding bytes: [UInt8], beside socketPath: String) -> Int32? {
    guard let slash = socketPath.lastIndex(of: "/") else { return nil }
    // mkstemp's template: six X's it replaces with a unique name.
    var template = Array((socketPath[..<slash] + "/.answer-" + String(repeating: "X", count: 6)).utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { return nil }
    unlink(template)
    guard writeAll(fd, bytes, socket: false), lseek(fd, 0, SEEK_SET) == 0 else {
        close(fd)
        return nil
    }
    return fd
}

// MARK: The front door

/// Opens `/dev/null` on standard input, output or error when one is closed (`hooray … <&-`), so
/// that the connection to hoorayd is not one of them: the full program takes the connection over
/// only above 2, and programs it starts must not get it as their standard input.
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
        let start = monotonicMilliseconds()
        openClosedStandardDescriptors()
        let arguments = rawArguments()
        let words = arguments.dropFirst().map { String(validating: $0, as: UTF8.self) }

        // Words that are not UTF-8, no home folder, no safe runtime folder, no daemon: the full program's.
        guard words.allSatisfy({ $0 != nil }), !isTheFullProgramsAlone(words.map { $0! }), let data = dataDirectory(),
            let home = homeFolder(), let here = workingFolder(), let path = controlSocket(), let id = requestID(),
            let fd = connectTo(path)
        else { handOver(arguments) }

        let terminal = variable("TERM")
        let color = isatty(1) == 1 && (variable("NO_COLOR") ?? "").isEmpty && terminal != "dumb"
        var caller = "{\"color\":\(color),\"data_directory\":\(quoted(data)),\"home\":\(quoted(home))"
        caller += ",\"interactive\":\(isatty(0) == 1)"
        if let localtime = variable("HOORAY_LOCALTIME") { caller += ",\"localtime\":\(quoted(localtime))" }
        if let zone = variable("TZ") { caller += ",\"time_zone\":\(quoted(zone))" }
        caller += ",\"version\":\(quoted(HoorayVersion.current)),\"working_directory\":\(quoted(here))}"
        let list = words.map { quoted($0!) }.joined(separator: ",")
        let request =
            "{\"api_version\":1,\"arguments\":[\(list)],\"caller\":\(caller),\"method\":\"run\",\"request_id\":\(quoted(id))}\n"
        // A daemon that turns the connection away (it is busy) answers before reading: read what came.
        if !writeAll(fd, Array(request.utf8), socket: true), errno == EAGAIN || errno == EWOULDBLOCK {
            // The request's line is not whole (its newline is the last byte sent): the daemon runs
            // nothing of it, and the full program sends its own.
            close(fd)
            handOver(arguments)
        }

        switch receive(fd, until: start + answerWait) {
        case .line(let line):
            var reader = JSONReader(line)
            guard let answer = reader.value() else {
                // Not an answer that can be read: the daemon may have run the command, so the full
                // program goes on from this request, as for a daemon that closed the connection.
                _ = fcntl(fd, F_SETFD, 0)
                handOver(arguments, [("HOORAY_FRONT_DOOR", "closed \(id) \(fd) \(answerWait)")])
            }
            if case .object(let output)? = answer["output"], case .array(let writes)? = output["writes"],
                case .number(let status)? = output["status"]
            {
                for entry in writes {
                    guard case .number(let stream)? = entry["to"], case .string(let text)? = entry["text"] else {
                        continue
                    }
                    _ = writeAll(stream == 1 ? 1 : 2, Array(text.utf8), socket: false)
                }
                exit(Int32(status))
            }
            if case .bool(true)? = answer["hand_over"], answer["reply"] != nil {
                // The daemon ran the command and left the rest (a clipboard, a guide) to the full program.
                guard line.count > longestAnswerInVariable else {
                    handOver(
                        arguments,
                        [
                            ("HOORAY_FRONT_DOOR", "answered \(id)"),
                            ("HOORAY_FRONT_DOOR_ANSWER", String(decoding: line, as: UTF8.self)),
                        ])
                }
                // Too long for a variable (execv refuses one over 128 KiB): in a file only the
                // descriptor names; failing that, the full program finds out from the request.
                if let file = unlinkedFile(holding: line, beside: path) {
                    handOver(arguments, [("HOORAY_FRONT_DOOR", "answered \(id) \(file)")])
                }
                _ = fcntl(fd, F_SETFD, 0)
                handOver(arguments, [("HOORAY_FRONT_DOOR", "closed \(id) \(fd) \(answerWait)")])
            }
            // Handed back, a daemon of another version, or busy: nothing was run, the full program runs it.
            close(fd)
            handOver(arguments)
        case .notYet:
            // The request waits in a daemon that has not answered: the full program goes on from here on
            // this very connection — waits on for a daemon that runs, or claims the request id and runs the
            // command itself, so that it runs once.
            _ = fcntl(fd, F_SETFD, 0)
            handOver(arguments, [("HOORAY_FRONT_DOOR", "waiting \(id) \(fd) \(answerWait)")])
        case .closed:
            _ = fcntl(fd, F_SETFD, 0)
            handOver(arguments, [("HOORAY_FRONT_DOOR", "closed \(id) \(fd) \(answerWait)")])
        }
    }
}
