import Foundation
import HoorayEngine
import HoorayExternalPlugins
import HoorayKit
import Testing

/// Permissions as a plugin author writes them in `plugin.toml` and as the user reads them.
@Suite struct PluginPermissionTests {
    /// Reads a manifest whose line 6 is `permissions = [ … ]`.
    static func read(_ permissions: String) throws -> PluginManifest {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let folder = try scratch.plugin("pomodoro", toml: PluginScratch.manifest("permissions = [\(permissions)]"))
        return try PluginManifest.read(folder: folder)
    }

    static func refusal(_ permissions: String) throws -> String {
        do {
            _ = try read(permissions)
        } catch let error as PluginManifestError {
            return error.description
        }
        Issue.record("\(permissions) was read without a word")
        return ""
    }

    @Test func networkAndItsHostsAreReadAndNotificationsIsAnotherSpellingOfNotify() throws {
        let manifest = try Self.read(
            #""notifications", "network:api.example.org", "network:127.0.0.1:8080", "network:[::1]:9000", "#
                + #""network:API.Example.org""#)
        #expect(manifest.permissions == [.notify, .network])
        #expect(manifest.networkHosts == ["api.example.org", "127.0.0.1:8080", "[::1]:9000"])
        #expect(try Self.read(#""network""#).networkHosts.isEmpty)
    }

    struct Typo: CustomTestStringConvertible, Sendable {
        let written: String
        let words: [String]
        var testDescription: String { written }
    }

    @Test(arguments: [
        Typo(written: #""netwrok""#, words: ["`netwrok` is not a permission", "did you mean `network`?"]),
        Typo(written: #""notfy""#, words: ["`notfy` is not a permission", "did you mean `notify`?"]),
        Typo(
            written: #""netwrok:api.example.org""#,
            words: ["`netwrok:api.example.org` is not a permission", "did you mean `network:api.example.org`?"]),
        Typo(written: #""network:""#, words: ["`network:` names no host", "such as network:api.example.org"]),
        Typo(written: #""network:exa mple.org""#, words: ["`network:exa mple.org` holds a space"]),
        Typo(written: #""network:example.org:99999""#, words: ["has the port 99999, not a number from 1 to 65535"]),
        Typo(written: #""network:300.1.1.1""#, words: ["300.1.1.1, which is not an IPv4 address"]),
        Typo(written: #""network:https://example.org""#, words: ["is a URL, not a host"]),
        Typo(written: #""network:ex_ample.org""#, words: ["holds “_”, which no host name has"]),
        Typo(written: #""network:*""#, words: ["plain network allows any host"]),
        Typo(written: #""camera""#, words: ["`camera` is not a permission", "remove it or write one of them"]),
    ])
    func aTypoIsRefusedWithWhereItIsTheNearMatchAndTheList(_ typo: Typo) throws {
        let message = try Self.refusal(typo.written)
        #expect(message.hasPrefix("plugin.toml:6:16: "), "\(message)")
        for words in typo.words {
            #expect(message.contains(words), "\(message)")
        }
        #expect(message.contains("network:HOST"), "the list of permissions is named: \(message)")
    }

    @Test func eachPermissionReadsAsPlainWordsAndNamedHostsAreShownWithoutBeingPromised() throws {
        let manifest = try Self.read(#""storage", "notify", "network:api.example.org""#)
        #expect(
            manifest.permissionWords == [
                "post notices and celebrate", "keep values in its own storage",
                "reach the network (it names api.example.org; Hooray cannot hold it to that host)",
            ])
        for permission in PluginPermission.allCases {
            #expect(!permission.plainWords.isEmpty && !permission.plainWords.contains("`"))
        }
    }

    @Test func whatItCanReachSaysNetworkOnlyWithThePermission() throws {
        let without = try Self.read(#""notify""#).reach(dataFolder: "/d/plugin-data/pomodoro")
        #expect(without.cannot.contains { $0.hasPrefix("the network: it has none") })
        #expect(without.can.contains { $0.contains("/d/plugin-data/pomodoro, read and write") })
        #expect(without.cannot.contains { $0.contains("your secrets") })
        let with = try Self.read(#""network""#).reach(dataFolder: "/d")
        #expect(with.can.contains("the network, as this computer can"))
        #expect(!with.cannot.contains { $0.contains("network") })
        let unsandboxed = try Self.read(#""notify""#).reach(dataFolder: "/d", sandboxed: false)
        #expect(unsandboxed.can.first?.contains("everything you can reach") == true && unsandboxed.cannot.isEmpty)
    }
}

/// The permissions the user has allowed: first sight allows what a plugin asks for, a new one holds it.
@Suite struct PluginHoldTests {
    @Test func anUpdateAskingForMoreIsHeldUntilAllowedAndADroppedPermissionIsForgotten() throws {
        let scratch = try PluginScratch()
        defer { scratch.remove() }
        let environment = ["HOME": scratch.root, "XDG_DATA_HOME": scratch.root, "HOORAY_SYSTEM_PLUGIN_DIR": "/nowhere"]
        func install(_ permissions: String) throws {
            try scratch.plugin(
                "hooray/plugins/pomodoro", toml: PluginScratch.manifest("permissions = [\(permissions)]"))
        }
        func catalog() -> PluginCatalog {
            PluginCatalog(builtIns: [], environment: environment, hostVersion: "1")
        }
        try install(#""notify""#)
        var pomodoro = try #require(catalog().external.first)
        #expect(pomodoro.heldReason == nil, "first sight: what it asks for is allowed")

        try install(#""notify", "network:api.example.org""#)
        let held = catalog()
        pomodoro = try #require(held.external.first)
        #expect(pomodoro.hold.notAllowed == [.network])
        let reason = try #require(pomodoro.heldReason)
        #expect(reason.contains("reach the network (it names api.example.org"), "\(reason)")
        #expect(reason.contains("`hooray plugins allow pomodoro`"), "\(reason)")
        #expect(catalog().external.first?.heldReason != nil, "still held when looked at again")

        #expect(try held.allow("pomodoro") == [.network])
        #expect(held.external.first?.heldReason == nil)
        #expect(catalog().external.first?.heldReason == nil, "the allowing is recorded")

        try install(#""notify""#)
        #expect(catalog().external.first?.heldReason == nil)
        try install(#""notify", "network""#)
        #expect(catalog().external.first?.hold.notAllowed == [.network], "a dropped permission is forgotten")
    }
}
