import Foundation
import HooraySDK
import Testing

/// The Python SDK's own tests (sdk/python, which also drive the example plugins through their
/// pipes), and the copies of the SDK that ship: they are the same bytes as sdk/python/hooray_plugin.py.
@Suite(.timeLimit(.minutes(2)))
struct PythonSDKTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(path))
    }

    /// `python3` on the `PATH`, or `nil`.
    static var python: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test func theSDKsUnitTestsPass() throws {
        guard let python = Self.python else {
            Issue.record(
                "python3 is not installed, so the Python SDK's tests could not run; install python3 (apt-get install python3)"
            )
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        // -B: no __pycache__ left in sdk/python, which is a Swift target's folder too.
        process.arguments = ["-B", "-m", "unittest", "discover", "-s", "sdk/python"]
        process.currentDirectoryURL = Self.root
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 -m unittest discover -s sdk/python failed:\n\(report)")
        #expect(report.contains("OK"), "\(report)")
    }

    @Test func theExamplesCopyOfTheSDKIsTheSame() throws {
        #expect(
            try Self.contents("examples/plugins/pomodoro/hooray_plugin.py")
                == Self.contents("sdk/python/hooray_plugin.py"),
            "copy sdk/python/hooray_plugin.py to examples/plugins/pomodoro/ again")
    }

    @Test func theScaffoldsCopyOfTheSDKIsTheSame() throws {
        let sdk = try Self.contents("sdk/python/hooray_plugin.py")
        #expect(Data(PluginSDK.python.utf8) == sdk)
        let files = PluginSDK.scaffold(name: "focus-timer", language: .python)
        #expect(files.first { $0.path == "hooray_plugin.py" }.map { Data($0.contents.utf8) } == sdk)
    }

    @Test(arguments: [
        "examples/plugins/pomodoro/pomodoro.py", "examples/plugins/stretch/stretch.sh",
        "sdk/templates/python-program.py", "sdk/templates/sh-program.sh",
    ])
    func theProgramsStartWithTheirInterpreter(_ path: String) throws {
        let text = String(decoding: try Self.contents(path), as: UTF8.self)
        #expect(text.hasPrefix(path.hasSuffix(".py") ? "#!/usr/bin/env python3\n" : "#!/bin/sh\n"))
    }

    @Test(arguments: ["examples/plugins/pomodoro/pomodoro.py", "examples/plugins/stretch/stretch.sh"])
    func theExamplesProgramsAreExecutable(_ path: String) throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.root.appendingPathComponent(path).path))
    }
}
