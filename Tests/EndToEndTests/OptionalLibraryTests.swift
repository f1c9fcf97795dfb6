import Foundation
import HooraySystemTesting
import Testing

/// Issue 37: libcurl is loaded when the first AI request is made and libsecret at the first keyring
/// operation, not linked, so that a command that needs neither maps none of them. Without one
/// (hidden here by bubblewrap, which puts an empty file where the library was), everything else
/// works and what needed it says which Debian package to install, instead of the loader refusing to
/// start the program.
@Suite(.timeLimit(.minutes(3)))
struct OptionalLibraryTests {
    /// The path the dynamic loader finds a library at, such as `libcurl.so.4`.
    static func libraryPath(_ name: String, package: String) throws -> String {
        for folder in ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"] {
            let path = folder + "/" + name
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        throw SystemTestingError.executableNotFound("\(name) (Debian's \(package))")
    }

    /// `program` and its arguments, run in bubblewrap with the whole system visible but the library empty.
    static func without(_ library: String, package: String, _ program: String, _ arguments: [String]) throws
        -> [String]
    {
        let library = try libraryPath(library, package: package)
        // The library's real file: bubblewrap binds over a symbolic link's target anyway.
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: library)).map {
            $0.hasPrefix("/") ? $0 : (library as NSString).deletingLastPathComponent + "/" + $0
        }
        // --die-with-parent: bubblewrap passes no SIGTERM on, so stopping it must stop the program too.
        return [
            "--die-with-parent", "--dev-bind", "/", "/", "--ro-bind", "/dev/null", target ?? library, "--", program,
        ]
            + arguments
    }

    static func withoutLibcurl(_ program: String, _ arguments: [String]) throws -> [String] {
        try without("libcurl.so.4", package: "libcurl4", program, arguments)
    }

    static func withoutLibsecret(_ program: String, _ arguments: [String]) throws -> [String] {
        try without("libsecret-1.so.0", package: "libsecret-1-0", program, arguments)
    }

    @Test("Without libcurl, hooray ai test names the package, hoorayd runs and a win gets offline praise")
    func aMissingLibcurlIsNamedNotALoaderError() async throws {
        try await HoorayFixture.with { fixture in
            let server = try await fixture.startServer()
            try await withAIServer { ai in
                try fixture.writeConfig(
                    """
                    [ai]
                    provider = "openai"
                    endpoint = "\(ai.endpoint("good"))"
                    model = "test-model"
                    api_key_env = "HOORAY_TEST_KEY"

                    [plugins.wins]
                    welcome = false
                    """)
                let key = ["HOORAY_TEST_KEY": "sk-test-0123456789"]

                // The real library answers: what differs below is the library alone.
                let working = try await fixture.hooray(arguments: ["ai", "test"], environment: key)
                #expect(working.status == .exited(0), "\(working.standardError)")
                #expect(try ai.requests().count == 1)

                let missing = try await ProcessRunner.run(
                    "/usr/bin/bwrap",
                    arguments: try Self.withoutLibcurl(HoorayFixture.binDirectory + "/hooray", ["ai", "test"]),
                    environment: fixture.environment(overriding: key))
                #expect(missing.status == .exited(69), "\(missing.standardError)\n\(missing.standardOutput)")
                let said = missing.standardOutput + missing.standardError
                #expect(!said.contains("error while loading shared libraries"), "\(said)")
                #expect(said.contains("libcurl could not be loaded"), "\(said)")
                #expect(said.contains("sudo apt install libcurl4"), "\(said)")
                #expect(try ai.requests().count == 1, "no request went out")

                // hoorayd starts without it, and a win is praised offline; the reason is in its log.
                let daemon = try ChildProcess(
                    "/usr/bin/bwrap",
                    arguments: try Self.withoutLibcurl(HoorayFixture.binDirectory + "/hoorayd", []),
                    environment: fixture.environment(overriding: key))
                #expect(
                    await daemon.waitForOutput(
                        containing: "hoorayd is running", in: .standardError, timeout: .seconds(30)),
                    "\(daemon.standardError)")
                let win = try await fixture.hooray("win", "Fixed the bike")
                #expect(win.status == .exited(0), "\(win.standardError)")
                let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(15)).first)
                #expect(shown.summary == "Moment logged", "\(shown)")
                #expect(shown.body.hasPrefix("Fixed the bike\n"), "\(shown.body)")
                #expect(
                    await daemon.waitForOutput(
                        containing: "sudo apt install libcurl4", in: .standardError, timeout: .seconds(15)),
                    "\(daemon.standardError)")
                #expect(daemon.exitStatus == nil, "hoorayd is still running")
                #expect(try ai.requests().count == 1, "no request went out")
                await daemon.stop()
            }
        }
    }

    @Test(
        "Without libsecret, hooray ai set-key names the package, the stored key is kept, hoorayd runs and a win is logged"
    )
    func aMissingLibsecretIsNamedNotALoaderError() async throws {
        try await AIKeyTests.withKeyring { fixture, keyring, ai in
            let server = try await fixture.startServer()
            try fixture.writeConfig(AIKeyTests.config(endpoint: ai.endpoint("good")))

            // The real library stores a key: what differs below is the library alone.
            let key = AIKeyTests.makeKey()
            let stored = try await fixture.hooray(arguments: ["ai", "set-key", "--provider", "openai"], input: key)
            #expect(stored.status == .exited(0), "\(stored.standardError)")

            let other = AIKeyTests.makeKey()
            let missing = try await ProcessRunner.run(
                "/usr/bin/bwrap",
                arguments: try Self.withoutLibsecret(
                    HoorayFixture.binDirectory + "/hooray", ["ai", "set-key", "--provider", "openai"]),
                environment: fixture.environment(), input: other)
            #expect(missing.status == .exited(69), "\(missing.standardError)\n\(missing.standardOutput)")
            let said = missing.standardOutput + missing.standardError
            #expect(!said.contains("error while loading shared libraries"), "\(said)")
            #expect(
                said.contains("Nothing was stored: Hooray cannot use the keyring: libsecret could not be loaded"),
                "\(said)")
            #expect(said.contains("sudo apt install libsecret-1-0"), "\(said)")
            #expect(!said.contains(other))
            #expect(try await keyring.lookup(attributes: AIKeyTests.openAIAttributes) == key, "the stored key is kept")

            // hoorayd starts without it and logs a win; the praise that needed the key says why not.
            let daemon = try ChildProcess(
                "/usr/bin/bwrap",
                arguments: try Self.withoutLibsecret(HoorayFixture.binDirectory + "/hoorayd", []),
                environment: fixture.environment())
            #expect(
                await daemon.waitForOutput(containing: "hoorayd is running", in: .standardError, timeout: .seconds(30)),
                "\(daemon.standardError)")
            let win = try await fixture.hooray("win", "Fixed the bike")
            #expect(win.status == .exited(0), "\(win.standardError)")
            let shown = try #require(try await server.waitForNotifications(count: 1, timeout: .seconds(15)).first)
            #expect(shown.summary == "Moment logged", "\(shown)")
            #expect(
                await daemon.waitForOutput(containing: "libsecret-1-0", in: .standardError, timeout: .seconds(15)),
                "\(daemon.standardError)")
            #expect(daemon.exitStatus == nil, "hoorayd is still running")
            #expect(try ai.requests().isEmpty, "no request went out without the key")
            await daemon.stop()
        }
    }
}
