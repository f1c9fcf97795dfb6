import Foundation
import HooraySystemTesting
import Testing

/// `scripts/check-imports`, which `make test` and `make lint` run: a target that imports a module
/// it does not declare in Package.swift is named, with the file, the line and the fix.
@Suite struct ImportCheckTests {
    /// A manifest as `swift package dump-package` writes it, of one target in `folder`.
    func manifest(folder: String, dependencies: String) -> String {
        """
        {"targets": [{"name": "Sample", "type": "regular", "path": "\(folder)", "exclude": [],
          "dependencies": [\(dependencies)]}]}
        """
    }

    func check(_ manifest: String, in directory: TemporaryDirectory) async throws -> ProcessOutput {
        let file = directory.path + "/manifest.json"
        try manifest.write(toFile: file, atomically: true, encoding: .utf8)
        return try await ProcessRunner.run(
            Documentation.root + "/scripts/check-imports", arguments: ["--manifest-json", file])
    }

    @Test func anUndeclaredImportIsNamedWithItsPlaceAndTheFix() async throws {
        try await withTemporaryDirectory(prefix: "hooray-imports") { directory in
            let folder = directory.path + "/Sample"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try """
            import Foundation
            @testable import GRDB
            import Logging

            let script = \"\"\"
            import json
            \"\"\"
            """.write(toFile: folder + "/Sample.swift", atomically: true, encoding: .utf8)
            let undeclared = try await check(
                manifest(folder: folder, dependencies: #"{"product": ["Logging", "swift-log", null, null]}"#),
                in: directory)
            #expect(undeclared.status == .exited(1))
            #expect(undeclared.standardError.contains("Sample/Sample.swift:2: Sample imports GRDB"))
            #expect(undeclared.standardError.contains("Add each module to its target's dependencies in Package.swift"))
            // Foundation comes with the toolchain, Logging is declared, `import json` is a string's text.
            #expect(!undeclared.standardError.contains("Foundation"), "\(undeclared.standardError)")
            #expect(!undeclared.standardError.contains("imports Logging"))
            #expect(!undeclared.standardError.contains("json"))

            let declared = try await check(
                manifest(
                    folder: folder,
                    dependencies: #"{"product": ["Logging", "swift-log", null, null]}, {"byName": ["GRDB", null]}"#),
                in: directory)
            #expect(declared.status == .exited(0), "\(declared.standardError)")
        }
    }
}
