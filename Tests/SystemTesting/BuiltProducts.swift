import Foundation

/// The package's built executables, such as `hoorayd` and `hooray`, for end-to-end tests to run.
public enum BuiltProducts {
    /// The directory SwiftPM built into: the one holding the running test bundle.
    ///
    /// On Linux the test bundle is an executable in the build directory
    /// (`.build/<triple>/debug/<package>PackageTests.xctest`), next to the package's executables.
    public static var directory: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The path of a built executable.
    ///
    /// - Parameter name: The product's name, such as `hoorayd`.
    /// - Returns: Its absolute path.
    /// - Throws: ``SystemTestingError/executableNotFound(_:)`` when it was not built; build with
    ///   `swift build --build-tests` (which builds every product) before `swift test --skip-build`.
    public static func executable(named name: String) throws -> String {
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw SystemTestingError.executableNotFound("\(name) (looked in \(directory))")
        }
        return path
    }
}
