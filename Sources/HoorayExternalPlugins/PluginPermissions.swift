import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension PluginPermission {
    /// What the permission lets a plugin do, in plain words, as `hooray plugins` shows it: the end of
    /// a sentence that starts "It may …", such as `post notices and celebrate`.
    public var plainWords: String {
        switch self {
        case .notify: "post notices and celebrate"
        case .schedule: "schedule and cancel its own reminders"
        case .storage: "keep values in its own storage"
        case .ai: "ask for praise through Hooray's AI service (your key stays with Hooray)"
        case .network: "reach the network, any host, as this computer can"
        }
    }

    /// Other spellings `plugin.toml` accepts, such as `notifications` for ``notify``.
    public static let otherSpellings: [String: PluginPermission] = ["notifications": .notify]

    /// The permissions as a message lists them.
    static let vocabulary = "notify (or notifications), schedule, storage, ai, network and network:HOST"

    /// Every word a permission may be written as, for did-you-mean.
    static var spellings: [String] {
        allCases.map(\.rawValue) + otherSpellings.keys.sorted()
    }
}

extension PluginManifest {
    /// What a permission of this plugin lets it do, in plain words: ``PluginPermission/plainWords``,
    /// with the hosts `network:HOST` names.
    public func plainWords(for permission: PluginPermission) -> String {
        guard permission == .network, !networkHosts.isEmpty else { return permission.plainWords }
        let hosts = Self.joined(networkHosts)
        let one = networkHosts.count == 1 ? "that host" : "those hosts"
        return "reach the network (it names \(hosts); Hooray cannot hold it to \(one))"
    }

    /// Its permissions in plain words, in the order ``PluginPermission`` lists them.
    public var permissionWords: [String] {
        permissions.sorted().map { plainWords(for: $0) }
    }

    /// What the plugin's program can reach when it runs in Hooray's sandbox, and what it cannot, one
    /// line each, as `hooray plugins show NAME` lists them (docs/plugins.md says the same).
    ///
    /// - Parameters:
    ///   - dataFolder: The plugin's own data folder.
    ///   - sandboxed: `false` for a plugin run without a sandbox (`[plugins] allow_unsandboxed = true`),
    ///     which reaches what the user can.
    /// - Returns: The lines of what it reaches, and of what it does not.
    public func reach(dataFolder: String, sandboxed: Bool = true) -> (can: [String], cannot: [String]) {
        guard sandboxed else {
            return (
                [
                    "everything you can reach — your files, your secrets, the network: it runs without a sandbox "
                        + "([plugins] allow_unsandboxed = true)"
                ], []
            )
        }
        var can = [
            "its own folder \(folder), read-only",
            "its data folder \(dataFolder), read and write (its HOME)",
            "a /tmp of its own, empty at each start",
            "the system's programs and libraries (/usr, /lib, /etc without secrets), read-only",
            "Hooray, through the calls its permissions allow",
        ]
        var cannot = [
            "your home folder, and any file outside the folders above",
            "your secrets: hoorayd's environment, your keyring, the AI key",
            "the session and system buses, and /run/user",
            "Hooray's database and control socket; other plugins' data",
            "other processes: it sees only its own",
        ]
        if permissions.contains(.network) {
            can.append(
                networkHosts.isEmpty
                    ? "the network, as this computer can"
                    : "the network, as this computer can (it names \(Self.joined(networkHosts)))")
        } else {
            cannot.append("the network: it has none (its plugin.toml does not ask for network)")
        }
        return (can, cannot)
    }

    /// The limits its program runs within, one line each, such as `memory: 256 MiB`.
    public var limitWords: [String] {
        [
            "memory: \(PluginLimits.size(limits.memoryBytes)) per process",
            "processes: \(limits.processes) at once",
            "open files: \(limits.openFiles) per process",
            "CPU time: \(limits.cpuSecondsPerCall) s per call",
        ]
    }

    package static func joined(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}

/// Checks the HOST of a `network:HOST` permission.
enum NetworkHost {
    /// The host as `plugin.toml` should hold it (a name in lowercase), or why it is not one.
    ///
    /// A host is a name such as `api.example.org`, an IPv4 address such as `127.0.0.1`, or an IPv6
    /// address in brackets such as `[::1]`, each with an optional `:PORT` (1–65535).
    static func check(_ text: String) -> Result<String, Problem> {
        if text.isEmpty { return .failure(.empty) }
        if text == "*" { return .failure(.anyHost) }
        if let space = text.first(where: { $0.isWhitespace || $0.isNewline }) {
            return .failure(.character(space == " " ? "a space" : "a blank"))
        }
        if text.contains("/") || text.contains("@") {
            return .failure(.url)
        }
        var host = Substring(text)
        var port: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return .failure(.ipv6) }
            let address = String(host[host.index(after: host.startIndex)..<close])
            var buffer = in6_addr()
            guard inet_pton(AF_INET6, address, &buffer) == 1 else { return .failure(.ipv6) }
            let after = host[host.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return .failure(.ipv6) }
                port = after.dropFirst()
            }
            host = host[...close]
        } else {
            let parts = host.split(separator: ":", omittingEmptySubsequences: false)
            if parts.count > 2 { return .failure(.ipv6) }
            if parts.count == 2 {
                host = parts[0]
                port = parts[1]
            }
            if host.isEmpty { return .failure(.empty) }
            let lowered = host.lowercased()
            let labels = lowered.split(separator: ".", omittingEmptySubsequences: false)
            let isNumeric = labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }
            if isNumeric {
                var buffer = in_addr()
                guard labels.count == 4, inet_pton(AF_INET, lowered, &buffer) == 1 else {
                    return .failure(.ipv4(String(host)))
                }
            } else {
                guard lowered.count <= 253 else { return .failure(.tooLong) }
                for label in labels {
                    if label.isEmpty { return .failure(.emptyLabel) }
                    if label.count > 63 { return .failure(.tooLong) }
                    if let bad = label.first(where: { !$0.isASCIIDigit && !("a"..."z").contains($0) && $0 != "-" }) {
                        return .failure(.character("“\(bad)”"))
                    }
                    if label.hasPrefix("-") || label.hasSuffix("-") { return .failure(.dash) }
                }
            }
            host = Substring(lowered)
        }
        if let port {
            guard let number = Int(port), port.allSatisfy(\.isASCIIDigit), (1...65535).contains(number) else {
                return .failure(.port(String(port)))
            }
            return .success("\(host):\(number)")
        }
        return .success(String(host))
    }

    /// Why a HOST is not one.
    enum Problem: Error, Equatable {
        case empty, anyHost, url, ipv6, tooLong, emptyLabel, dash
        case character(String)
        case ipv4(String)
        case port(String)

        /// What is wrong, for a message that continues "`network:HOST` …".
        var words: String {
            switch self {
            case .empty: "names no host"
            case .anyHost: "is not a host: plain network allows any host"
            case .url: "is a URL, not a host"
            case .ipv6: "is not a host (an IPv6 address is written in brackets, such as network:[::1]:8080)"
            case .tooLong: "is too long for a host name"
            case .emptyLabel: "has an empty part between dots"
            case .dash: "has a part that starts or ends with a dash"
            case .character(let what): "holds \(what), which no host name has"
            case .ipv4(let address): "names \(address), which is not an IPv4 address (four numbers 0–255)"
            case .port(let port): "has the port \(port.isEmpty ? "empty" : port), not a number from 1 to 65535"
            }
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
