import Foundation
import HoorayKit

public enum PluginDiscovery {
    public struct Result: Sendable {
        public var found: [PluginManifest]
        public var refused: [RefusedPlugin]
    }

    public static func folders(environment: [String: String]) -> [String] {
        [((try? HoorayPaths(environment: environment).dataDirectory) ?? "/tmp") + "/plugins"]
    }

    public static func discover(folders: [String], builtIns: [any HoorayPlugin]) -> Result {
        var found: [PluginManifest] = []
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = folder + "/" + name
                guard let text = try? String(contentsOfFile: path + "/exec", encoding: .utf8) else { continue }
                found.append(
                    PluginManifest(
                        name: name, version: "0", apiVersions: 1...1, description: "temp",
                        exec: [path + "/" + text.trimmingCharacters(in: .whitespacesAndNewlines)], folder: path,
                        commands: [CommandSpec(name: "start", summary: "s", offersJSON: true)],
                        permissions: Set(PluginPermission.allCases)))
            }
        }
        return Result(found: found, refused: [])
    }
}
