import ArgumentParser
import Foundation
import HoorayAI
import HoorayCLIHost
import HoorayCommands
import HoorayEngine
import HoorayIdentity
import HoorayKit
import HoorayStorage
import HoorayTerminal
import HoorayText

struct IdentityCommand: AsyncParsableCommand, OffersJSON {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "identity",
            abstract: "Show your anonymous id and what it is used for.",
            discussion: """
                The anonymous id is made at random on this computer the first time it is needed and kept in \
                your desktop's keyring (GNOME Keyring, KWallet, KeePassXC) when one answers, otherwise in \
                \(UserPaths.dataDirectory)/identity (mode 600); [identity] store in hooray.toml chooses. It is sent only as the x-user-id header to the AI \
                endpoint you configure, and only when AI is configured. `hooray delete-my-data` removes it; a new \
                one is made the next time. Exits 1 when the identity file is damaged, and says how to recover.
                """)
    }

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Show the id only when one was made already; none is made (JSON: null).")
    var existing = false

    func run() async throws {
        let session = try CLISession(configFile: GlobalArguments.current.config)
        let identity: AnonymousIdentity
        let place: IdentityVault.Place
        do {
            let vault = session.identityVault(plugins: installedPlugins)
            if existing {
                guard let found = try vault.existingIdentity() else {
                    print(json ? "null" : "No anonymous id yet: hoorayd makes one the next time it starts.")
                    return
                }
                (identity, place) = found
            } else {
                (identity, place) = try vault.identity()
            }
        } catch {
            warn(error.description)
            throw ExitCode.failure
        }
        if json {
            print(
                try Output.json(
                    IdentityItem(
                        userId: identity.headerValue, createdAt: identity.createdAt,
                        store: IdentityItem.Store(place))))
            return
        }
        print("Your anonymous id: \(identity.headerValue)")
        print("Made: \(Output.when(identity.createdAt))")
        print("Kept in: \(place)")
        // Whether it is sent anywhere now, as the configuration says.
        let loaded = try? session.loadConfigurationLeniently(plugins: installedPlugins).configuration
        let sentNow: String
        if let loaded, loaded.aiSectionIgnored {
            sentNow =
                "The [ai] section has errors (`hooray config check` shows them), so nothing is sent until it is fixed."
        } else if let ai = loaded?.ai, ai.provider != .off, let endpoint = ai.endpoint {
            sentNow =
                "AI is on: it goes to \(TerminalText.safe(endpoint.host ?? endpoint.absoluteString)) (\(ai.provider.rawValue))."
        } else {
            sentNow = "AI is off, so it is sent nowhere."
        }
        print(
            """

            It was made at random on this computer and says nothing about who you are.
            Hooray sends it only as the x-user-id header to the AI endpoint you configure, and only
            when AI is configured, so that service can keep what you send it together. \(sentNow)
            `hooray delete-my-data` removes it with the rest of your data; a new one is made next time.
            """)
    }
}

/// `hooray identity --json`: the `identity` type of docs/json.md.
struct IdentityItem: Encodable {
    /// Where the identity is kept: `{"kind": "keyring", "service": "GNOME Keyring"}` or
    /// `{"kind": "file", "path": "…"}`.
    struct Store: Encodable {
        let kind: String
        let service: String?
        let path: String?

        init(_ place: IdentityVault.Place) {
            kind = place.kind
            switch place {
            case .keyring(let name): (service, path) = (name, nil)
            case .file(let file): (service, path) = (nil, file)
            }
        }

        enum CodingKeys: String, CodingKey { case kind, service, path }

        /// Both `service` and `path` are written, one of them `null`, so the keys never change.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(service, forKey: .service)
            try container.encode(path, forKey: .path)
        }
    }

    let userId: String
    let createdAt: Date
    let store: Store
}
