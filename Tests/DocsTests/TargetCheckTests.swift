import Foundation
import HooraySystemTesting
import Testing

/// `scripts/check-targets`, which `make test` and `make lint` run: a target that imports a module
/// it does not declare in Package.swift, and hoorayd's code sleeping outside its executor, are
/// named with the file, the line and the fix.
@Suite struct TargetCheckTests {
    /// A manifest as `swift package dump-package` writes it: `hoorayd`, which links `Sample`, in `folder`.
    func manifest(folder: String, dependencies: String) -> String {
        """
        {"targets": [
          {"name": "Sample", "type": "regular", "path": "\(folder)", "exclude": [], "dependencies": [\(dependencies)]},
          {"name": "hoorayd", "type": "executable", "path": "\(folder)/none", "exclude": [],
           "dependencies": [{"byName": ["Sample", null]}]}
        ]}
        """
    }

    func check(_ manifest: String, in directory: TemporaryDirectory) async throws -> ProcessOutput {
        let file = directory.path + "/manifest.json"
        try manifest.write(toFile: file, atomically: true, encoding: .utf8)
        return try await ProcessRunner.run(
            Documentation.root + "/scripts/check-targets", arguments: ["--manifest-json", file])
    }

    func sample(_ text: String, in directory: TemporaryDirectory) throws -> String {
        let folder = directory.path + "/Sample"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/Sample.swift", atomically: true, encoding: .utf8)
        return folder
    }

    static let logging = #"{"product": ["Logging", "swift-log", null, null]}"#

    @Test func anUndeclaredImportIsNamedWithItsPlaceAndTheFix() async throws {
        try await withTemporaryDirectory(prefix: "hooray-targets") { directory in
            let folder = try sample(
                """
                import Foundation
                @testable import GRDB
                import Logging

                let script = \"\"\"
                import json
                \"\"\"
                """, in: directory)
            let undeclared = try await check(manifest(folder: folder, dependencies: Self.logging), in: directory)
            #expect(undeclared.status == .exited(1))
            #expect(undeclared.standardError.contains("Sample/Sample.swift:2: Sample imports GRDB"))
            #expect(undeclared.standardError.contains("Add each module to its target's dependencies in Package.swift"))
            // Foundation comes with the toolchain, Logging is declared, `import json` is a string's text.
            #expect(!undeclared.standardError.contains("Foundation"), "\(undeclared.standardError)")
            #expect(!undeclared.standardError.contains("imports Logging"))
            #expect(!undeclared.standardError.contains("json"))

            let declared = try await check(
                manifest(folder: folder, dependencies: Self.logging + #", {"byName": ["GRDB", null]}"#),
                in: directory)
            #expect(declared.status == .exited(0), "\(declared.standardError)")
        }
    }

    @Test func pluginAuthorsFakesThatReachBeyondHoorayKitAreNamed() async throws {
        try await withTemporaryDirectory(prefix: "hooray-targets") { directory in
            func target(_ name: String, _ dependencies: [String]) -> String {
                let listed = dependencies.map { #"{"byName": ["\#($0)", null]}"# }.joined(separator: ", ")
                return
                    #"{"name": "\#(name)", "type": "regular", "path": "\#(directory.path)/\#(name)", "exclude": [], "dependencies": [\#(listed)]}"#
            }
            func manifest(_ fakes: [String]) -> String {
                #"{"targets": [\#(target("HoorayKit", [])), \#(target("HoorayEngine", ["HoorayKit"])), \#(target("HoorayKitTesting", fakes))]}"#
            }
            let beyond = try await check(manifest(["HoorayKit", "HoorayEngine"]), in: directory)
            #expect(beyond.status == .exited(1))
            #expect(
                beyond.standardError.contains(
                    "HoorayKitTesting depends on targets of Hooray's beside HoorayKit: HoorayEngine"),
                "\(beyond.standardError)")
            let alone = try await check(manifest(["HoorayKit"]), in: directory)
            #expect(alone.status == .exited(0), "\(alone.standardError)")
        }
    }

    @Test func hoorayDsCodeThatSleepsOutsideItsExecutorIsNamedWithTheOneToUse() async throws {
        try await withTemporaryDirectory(prefix: "hooray-targets") { directory in
            let folder = try sample(
                """
                // Task.sleep is named in a comment only here.
                func wait() async throws {
                    try await Task.sleep(for: .seconds(1))
                    DispatchQueue.global().async {}
                }
                """, in: directory)
            let broken = try await check(manifest(folder: folder, dependencies: ""), in: directory)
            #expect(broken.status == .exited(1))
            #expect(broken.standardError.contains("Sample/Sample.swift:3: Task.sleep in Sample, which hoorayd links"))
            #expect(broken.standardError.contains("use TaskTimer.sleep"))
            #expect(broken.standardError.contains("Sample/Sample.swift:4: DispatchQueue in Sample"))
            #expect(!broken.standardError.contains("Sample.swift:1:"), "\(broken.standardError)")
        }
    }
}
