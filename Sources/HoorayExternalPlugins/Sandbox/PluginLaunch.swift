import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What the host runs for a plugin: `hooray-sandbox` around bubblewrap around the plugin's
/// program, or, with `[plugins] allow_unsandboxed = true` where no sandbox can be had, the program
/// itself (through `hooray-sandbox inner` for its limits, when that is installed).
struct PluginLaunch: Sendable, Equatable {
    var executable: String
    var arguments: [String]
    var environment: [String: String]
    /// The folder it starts in.
    var folder: String
    /// Whether the program runs in bubblewrap.
    var sandboxed: Bool

    /// How to start a plugin's program, or why it cannot start.
    enum Decision: Sendable, Equatable {
        /// In its sandbox.
        case sandboxed(PluginLaunch)
        /// Without one, as `allow_unsandboxed` allows: with the reason to log and show.
        case unsandboxed(PluginLaunch, warning: String)
        /// Not at all: the sentence for `hooray plugins`, with the fix.
        case refused(String)
    }

    /// Decides how to start a plugin.
    ///
    /// - Parameters:
    ///   - manifest: The plugin.
    ///   - dataFolder: Its data folder.
    ///   - environment: Its whole environment (``PluginSupervisor/cleanEnvironment(_:plugin:data:)``).
    ///   - allowUnsandboxed: `[plugins] allow_unsandboxed` of `hooray.toml`.
    ///   - availability: Whether a sandbox can be had here.
    static func decide(
        manifest: PluginManifest, dataFolder: String, environment: [String: String], allowUnsandboxed: Bool,
        availability: SandboxAvailability = PluginSandbox.availability, helper: String? = PluginSandbox.helper
    ) -> Decision {
        switch availability {
        case .available:
            guard let helper else {
                return .refused(
                    PluginSandbox.refusal(reason: "hooray-sandbox is missing", fix: "reinstall Hooray"))
            }
            let policy = SandboxPolicy(
                pluginFolder: manifest.folder, dataFolder: dataFolder, helper: helper,
                network: manifest.permissions.contains(.network), limits: manifest.limits, exec: manifest.exec,
                environment: environment)
            return .sandboxed(
                PluginLaunch(
                    executable: helper,
                    arguments: ["outer", "\(getpid())", PluginSandbox.bubblewrap] + policy.arguments(),
                    environment: [:], folder: manifest.folder, sandboxed: true))
        case .unavailable(let reason, let fix):
            guard allowUnsandboxed else { return .refused(PluginSandbox.refusal(reason: reason, fix: fix)) }
            var launch = PluginLaunch(
                executable: manifest.exec[0], arguments: Array(manifest.exec.dropFirst()), environment: environment,
                folder: manifest.folder, sandboxed: false)
            if let helper {
                let limits = manifest.limits
                launch.executable = helper
                launch.arguments =
                    [
                        "inner", "--memory", "\(limits.memoryBytes)", "--processes", "\(limits.processes)", "--files",
                        "\(limits.openFiles)", "--keep-descriptors", "--",
                    ] + manifest.exec
            }
            return .unsandboxed(
                launch,
                warning:
                    "runs WITHOUT a sandbox, as allow_unsandboxed = true in hooray.toml allows: it can read and change "
                    + "all your files; the sandbox cannot be had because \(reason) (to fix it, \(fix))")
        }
    }
}
