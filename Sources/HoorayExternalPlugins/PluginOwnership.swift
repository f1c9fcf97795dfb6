import Foundation
import HoorayStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Who may change a plugin: a plugin runs as the user, so whoever may write its folder, its
/// `plugin.toml` or its program may run anything as the user. Each of them, and every folder between
/// the plugin folder and its program, must belong to the user or root, and no one else may write it;
/// so must the plugin folders they are found in (the user's and the system's). Links are followed:
/// what is checked is what would run.
enum PluginOwnership {
    /// Why the plugin in `folder`, found in `parent`, may not run; `nil` when only the user and root
    /// may change it.
    ///
    /// - Parameters:
    ///   - parent: The plugin folder it was found in, such as `~/.local/share/hooray/plugins`.
    ///   - folder: The plugin's folder.
    ///   - program: The program its manifest runs, inside `folder`; `nil` when not known.
    /// - Returns: The reason, naming the path, who may write it and the fix, as `hooray plugins` shows it.
    static func problem(parent: String, folder: String, program: String?) -> String? {
        var paths = [parent, folder, folder + "/plugin.toml"]
        if let program, program.hasPrefix(folder + "/") {
            // The folders between the plugin's folder and its program, then the program.
            var inside = folder
            for part in program.dropFirst(folder.count + 1).split(separator: "/") {
                inside += "/" + part
                paths.append(inside)
            }
        } else if let program {
            paths.append(program)
        }
        for path in paths {
            if let reason = problem(path) { return reason }
        }
        return nil
    }

    /// Why one file or folder makes a plugin unsafe to run, or `nil`.
    static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let shown = ShellCommand.quoted(path)
        let user = geteuid()
        if info.st_uid != user && info.st_uid != 0 {
            return "\(shown) belongs to another user (uid \(info.st_uid)), who could make the plugin run anything as "
                + "you, so it is not started; if you trust it, take it over with `\(ShellCommand.takeBack(path, recursive: false))`"
                + " and `chmod go-w \(shown)`, or remove the plugin"
        }
        if WriteAccess.othersMayWrite(mode: info.st_mode, group: info.st_gid) {
            let who = info.st_mode & 0o002 != 0 ? "every user" : "its group"
            return "\(shown) may be written by \(who) (mode \(String(info.st_mode & 0o777, radix: 8))), who could "
                + "make the plugin run anything as you, so it is not started; fix it with `chmod go-w \(shown)`"
        }
        return nil
    }
}
