import Foundation
import HooraySystemTesting
import Testing

/// Item 12: a hanging keyring, a full disk and a home that cannot be made are said plainly and
/// promptly. Item 11: `make install` installs stripped programs.
@Suite(.timeLimit(.minutes(3)))
struct HangsAndFailuresTests {
    @Test("Item 12: while the keyring hangs, hooray status answers and says the keyring did not answer")
    func statusAnswersWhileTheKeyringHangs() async throws {
        try await HoorayFixture.with { fixture in
            _ = try await fixture.startServer()
            let hung = try await UnresponsiveService(busAddress: fixture.bus.address, name: "org.freedesktop.secrets")
            let daemon = try await fixture.startDaemon()
            for _ in 0..<3 {
                let status = try await fixture.hooray("status")
                #expect(status.status == .exited(0), "\(status.standardError)")
                #expect(
                    status.standardOutput.contains(
                        "Anonymous id: not known now: the keyring did not answer within 1 s"),
                    "\(status.standardOutput)")
                #expect(!status.standardError.contains("did not answer"), "\(status.standardError)")
            }
            #expect(await daemon.stop() == .exited(0))
            await hung.stop()
        }
    }

    @Test(
        "Item 12: a full disk is reported as a full disk, naming the folder and the fix",
        .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func aFullDiskIsSaidPlainly() async throws {
        try await HoorayFixture.with { fixture in
            let data = fixture.home.appending("data")
            let hooray = HoorayFixture.binDirectory + "/hooray"
            // A small disk of its own for the data folder: the first moment fits, then it is filled up.
            let script = #"""
                mount -t tmpfs -o size=2m,mode=0700 tmpfs "$0" || exit 90
                "$@" win "Watered the plants" >/dev/null || exit 91
                dd if=/dev/zero of="$0/filler" bs=4k 2>/dev/null
                exec "$@" win "Called my sister"
                """#
            let full = try await ProcessRunner.run(
                "/usr/bin/unshare", arguments: ["-m", "/bin/sh", "-c", script, data, hooray],
                environment: fixture.environment())
            try #require(full.status != .exited(90), "cannot mount a tmpfs here: \(full.standardError)")
            #expect(full.status == .exited(1), "\(full.standardError)")
            #expect(full.standardError.contains("is full"), "\(full.standardError)")
            #expect(full.standardError.contains(data + "/hooray"), "\(full.standardError)")
            #expect(full.standardError.contains("Free some space"), "\(full.standardError)")
            #expect(!full.standardError.contains("I/O error"), "\(full.standardError)")
        }
    }

    @Test(
        "Item 12: a home from the password database that cannot be made is said in plain words",
        .enabled(if: geteuid() == 0, "needs root to run as a user whose home does not exist"))
    func aHomeThatCannotBeMadeIsSaidPlainly() async throws {
        try await HoorayFixture.with { fixture in
            // `nobody`'s home is /nonexistent, which it may not create.
            let id = "\(HoorayFixture.unprivilegedID)"
            let output = try await ProcessRunner.run(
                "/usr/bin/setpriv",
                arguments: [
                    "--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--inh-caps=-all",
                    HoorayFixture.userBinDirectory + "/hooray", "win", "Watered the plants",
                ],
                environment: fixture.environment(
                    withoutBus: true,
                    removing: ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME"]),
                workingDirectory: "/")
            #expect(output.status != .exited(0))
            #expect(output.standardError.contains("cannot create"), "\(output.standardError)")
            #expect(output.standardError.contains("permission denied"), "\(output.standardError)")
            #expect(!output.standardError.contains("Error Domain"), "\(output.standardError)")
            #expect(!output.standardError.contains("NSCocoaErrorDomain"), "\(output.standardError)")
        }
    }

    @Test(
        "Item 11: make install installs the programs stripped of debug information",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make")
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/readelf")))
    func makeInstallStripsThePrograms() async throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let scratch = try TemporaryDirectory(prefix: "hooray-install")
        let release = scratch.appending("release")
        let generated = scratch.appending("generated")
        for folder in ["release/release", "generated/man", "generated/completions"] {
            try FileManager.default.createDirectory(
                atPath: scratch.appending(folder), withIntermediateDirectories: true)
        }
        // The debug front door has debug information, as the release programs do before stripping.
        for program in ["hooray", "hoorayd", "hooray-cli", "hooray-sandbox", "hooray-app"] {
            try FileManager.default.copyItem(
                atPath: HoorayFixture.binDirectory + "/hooray", toPath: release + "/release/" + program)
        }
        for file in [
            "man/hooray.1", "man/hoorayd.1", "completions/hooray.bash", "completions/_hooray",
            "completions/hooray.fish",
        ] {
            _ = FileManager.default.createFile(atPath: generated + "/" + file, contents: Data())
        }
        func sections(_ file: String) async throws -> String {
            try await ProcessRunner.run("/usr/bin/readelf", arguments: ["-S", "-W", file]).standardOutput
        }
        try #require(try await sections(release + "/release/hoorayd").contains(".debug_info"))
        let installed = try await ProcessRunner.run(
            "/usr/bin/make",
            arguments: [
                "-s", "-C", repository, "install-files", "RELEASE=\(release)", "GENERATED=\(generated)",
                "DESTDIR=\(scratch.appending("root"))", "PREFIX=/usr",
            ])
        #expect(installed.status == .exited(0), "\(installed.standardError)")
        for program in [
            "bin/hooray", "bin/hoorayd", "bin/hooray-app", "libexec/hooray/hooray-cli", "lib/hooray/hooray-sandbox",
        ] {
            let list = try await sections(scratch.appending("root/usr/" + program))
            #expect(!list.contains(".debug_info"), "\(program) keeps its debug information")
            #expect(!list.contains(".symtab"), "\(program) keeps its symbol table")
        }
    }
}
