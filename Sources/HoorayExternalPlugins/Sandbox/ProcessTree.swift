import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A plugin's processes as `/proc` shows them: how much CPU time they used and how many there are,
/// for the CPU limit of a call and for telling a fork bomb from a crash.
struct ProcessTree: Sendable, Equatable {
    /// The CPU time, user and system, of every process of the tree and of the children they reaped.
    var cpuSeconds: Double
    /// How many processes the tree has, threads not counted.
    var processes: Int

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// Reads the processes of a plugin: inside its sandbox, those of its process namespace, listed by
    /// the sandbox's own `/proc` (`/proc/INIT/root/proc`, a handful of entries); without a sandbox,
    /// the descendants of the program found in the whole of `/proc`.
    static func measure(_ process: PluginProcess) -> ProcessTree? {
        guard process.sandboxed else { return measure(root: process.pid) }
        guard let initPID = process.sandboxInit else { return nil }
        let proc = "/proc/\(initPID)/root/proc"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: proc) else { return nil }
        var tree = ProcessTree(cpuSeconds: 0, processes: 0)
        for name in names where name.first?.isNumber == true {
            guard let ticks = cpuTicks(of: proc + "/" + name + "/stat") else { continue }
            tree.cpuSeconds += Double(ticks) / ticksPerSecond
            tree.processes += 1
        }
        return tree
    }

    /// The first child of `pid`: bubblewrap's process inside the sandbox (its namespace's init).
    static func firstChild(of pid: Int32) -> Int32? {
        parents().first { $0.value == pid }?.key
    }

    /// The parent of every process of the computer.
    static func parents() -> [Int32: Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [Int32: Int32] = [:]
        for name in names {
            guard let pid = Int32(name), let text = read("/proc/\(name)/stat"), let close = text.lastIndex(of: ")")
            else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
        }
        return parents
    }

    /// The tree rooted at `pid`, found through the parents of every process of the computer.
    static func measure(root pid: Int32) -> ProcessTree? {
        var children: [Int32: [Int32]] = [:]
        for (child, parent) in parents() { children[parent, default: []].append(child) }
        var tree = ProcessTree(cpuSeconds: 0, processes: 0)
        var queue = [pid]
        var seen: Set<Int32> = []
        while let next = queue.popLast() {
            guard seen.insert(next).inserted else { continue }
            guard let ticks = cpuTicks(of: "/proc/\(next)/stat") else {
                if next == pid { return nil }
                continue
            }
            tree.cpuSeconds += Double(ticks) / ticksPerSecond
            tree.processes += 1
            queue += children[next] ?? []
        }
        return tree
    }

    /// utime + stime + cutime + cstime of `/proc/PID/stat`, in clock ticks.
    static func cpuTicks(of path: String) -> Int? {
        guard let text = read(path), let close = text.lastIndex(of: ")") else { return nil }
        // After the command's name (which may hold spaces and parentheses): state is field 3, utime 14.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 15 else { return nil }
        return fields[11...14].reduce(0) { $0 + (Int($1) ?? 0) }
    }

    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
