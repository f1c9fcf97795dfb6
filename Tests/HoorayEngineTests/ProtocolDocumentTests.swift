import Foundation
import Testing

@testable import HoorayEngine
@testable import HoorayExternalPlugins

/// docs/protocol.md's plugin protocol and the host agree (the control protocol's types are checked
/// against it in HoorayClientTests' WireTypeDocumentTests).
@Suite struct ProtocolDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)) ?? ""
    }()

    /// The method names in the first column of the table under a heading of the document.
    static func methods(under heading: String) -> [String] {
        guard let start = document.range(of: heading) else { return [] }
        var names: [String] = []
        for line in document[start.upperBound...].split(separator: "\n").dropFirst() {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { continue }
            names.append(String(line[line.index(line.startIndex, offsetBy: 3)..<end]))
        }
        return names
    }

    @Test func thePluginProtocolsMethodsAreTheOnesTheHostServesAndSends() {
        // The plugin's calls: the document's table and the host's dispatch list agree both ways.
        #expect(Set(Self.methods(under: "### The plugin calls the host")) == Set(PluginSupervisor.hostMethods.keys))
        for (method, permission) in PluginSupervisor.hostMethods {
            let row = Self.document.split(separator: "\n").first { $0.hasPrefix("| `\(method)` |") } ?? ""
            #expect(row.contains(permission.map { "| `\($0.rawValue)` |" } ?? "| — |"), "\(method)'s permission")
        }
        // The host's calls: each name in the table is sent by the supervisor.
        let sent = [
            "initialize", "reminderDue", "reminderSkipped", "actionInvoked", "command", "configChanged", "shutdown",
        ]
        #expect(Self.methods(under: "### The host calls the plugin") == sent)
        #expect(Self.document.contains("plugin `api_version` **\(PluginManifest.hostAPIVersions.upperBound)**"))
        #expect(Self.document.contains("at most \(ExternalPluginLimits().noticesPerMinute) a minute"))
        #expect(Self.document.contains("at most \(ExternalPluginLimits().maximumReminders) per plugin"))
        #expect(Self.document.contains("after \(ExternalPluginLimits().crashLimit) such exits in"))
        #expect(Self.document.contains("(\(FrameDecoder.maximumBody) bytes)"))
    }
}
