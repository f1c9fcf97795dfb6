import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a plugin sees from inside its sandbox, as bubblewrap's arguments: the system read-only,
/// `/etc` without its secrets, its own folder read-only, its data folder read-write, a private
/// `/tmp`, `/proc` of its own processes, a minimal `/dev`, and nothing else of the computer — no
/// home, no `/run/user`, no bus, no other process, no network unless its manifest asks for it.
///
/// A pure function of the plugin and a view of the host's file system, so that tests can check the
/// list without running anything.
struct SandboxPolicy: Sendable {
    /// The plugin's folder, symbolic links resolved (``PluginManifest/folder``).
    var pluginFolder: String
    /// Its data folder, `plugin-data/NAME` of Hooray's data folder.
    var dataFolder: String
    /// The `hooray-sandbox` program, bound read-only at its own path.
    var helper: String
    /// Whether it shares the computer's network (the `network` permission).
    var network: Bool
    /// Its limits, set by `hooray-sandbox inner`.
    var limits: PluginLimits
    /// The program and its arguments.
    var exec: [String]
    /// The plugin's whole environment.
    var environment: [String: String]

    /// The kind of a path on the host, as far as the sandbox cares.
    enum Kind: Sendable, Equatable {
        case missing
        case folder
        case file
        case symlink(String)
    }

    /// Looks at a path without following a final symbolic link.
    typealias Look = @Sendable (String) -> Kind

    /// The top-level folders a merged-`/usr` system links into `/usr`; on an older system, real folders.
    static let systemLinks = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]

    /// What is hidden of `/etc`: password hashes, private keys, saved Wi-Fi and VPN secrets.
    static let etcSecrets = [
        "/etc/shadow", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/etc/security/opasswd",
        "/etc/ssl/private", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh", "/etc/krb5.keytab",
        "/etc/NetworkManager/system-connections", "/etc/wpa_supplicant", "/etc/ppp", "/etc/libvirt/secrets",
        "/etc/cups/ssl",
    ]

    /// The variables a plugin gets, and no others: see ``PluginSupervisor/cleanEnvironment(_:plugin:data:)``.
    static let environmentNames = [
        "PATH", "LANG", "TZ", "HOME", "HOORAY_PLUGIN", "HOORAY_PLUGIN_DATA", "PYTHONUNBUFFERED",
    ]

    /// bubblewrap's arguments, up to and including `--`, then `hooray-sandbox inner`'s, then the program.
    func arguments(look: Look = SandboxPolicy.look) -> [String] {
        var arguments = [
            "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "hooray-plugin",
        ]
        if network { arguments += ["--share-net"] }
        arguments += ["--ro-bind", "/usr", "/usr"]
        for path in Self.systemLinks {
            switch look(path) {
            case .symlink(let target): arguments += ["--symlink", target, path]
            case .folder: arguments += ["--ro-bind", path, path]
            case .file, .missing: break
            }
        }
        arguments += ["--ro-bind", "/etc", "/etc"]
        for path in Self.etcSecrets {
            switch look(path) {
            case .file: arguments += ["--ro-bind", "/dev/null", path]
            case .folder: arguments += ["--tmpfs", path, "--remount-ro", path]
            case .symlink, .missing: break
            }
        }
        // With the network shared, names are resolved through /etc/resolv.conf, which often points
        // into /run (systemd-resolved, NetworkManager): that one file, read-only.
        if network, case .symlink = look("/etc/resolv.conf"),
            let resolved = realpath("/etc/resolv.conf", nil).map({ pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            }), !resolved.hasPrefix("/etc/"), !resolved.hasPrefix("/usr/")
        {
            arguments += ["--ro-bind", resolved, resolved]
        }
        arguments += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        arguments += ["--ro-bind", helper, helper]
        arguments += ["--ro-bind", pluginFolder, pluginFolder]
        arguments += ["--bind", dataFolder, dataFolder]
        arguments += ["--chdir", pluginFolder, "--clearenv"]
        for name in environment.keys.sorted() {
            arguments += ["--setenv", name, environment[name]!]
        }
        arguments += ["--", helper, "inner"]
        arguments += [
            "--memory", "\(limits.memoryBytes)", "--processes", "\(limits.processes)", "--files", "\(limits.openFiles)",
        ]
        arguments += ["--"] + exec
        return arguments
    }

    /// Looks at a path on this computer.
    @Sendable static func look(_ path: String) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .missing }
        switch status.st_mode & S_IFMT {
        case S_IFLNK:
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &buffer, buffer.count - 1)
            guard count > 0 else { return .missing }
            return .symlink(String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        case S_IFDIR: return .folder
        default: return .file
        }
    }
}
