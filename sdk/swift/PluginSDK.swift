import Foundation

/// The plugin SDK and the scaffolds of `hooray plugin new`, compiled in from the files under `sdk/`
/// so that `hooray` needs no data files: `sdk/python/hooray_plugin.py` and `sdk/templates/`.
public enum PluginSDK {
    /// The Python SDK, `hooray_plugin.py`, byte for byte.
    public static var python: String { String(decoding: PackageResources.hooray_plugin_py, as: UTF8.self) }

    /// A language `hooray plugin new` writes a plugin in.
    public enum Language: String, CaseIterable, Sendable {
        /// Python 3.9 or later, with the SDK beside the program.
        case python
        /// POSIX sh, speaking the protocol itself.
        case sh
    }

    /// One file of a scaffold.
    public struct File: Sendable, Hashable {
        /// Its path inside the plugin's folder, such as `plugin.toml`.
        public var path: String
        /// Its text.
        public var contents: String
        /// Whether it is the program, to be made executable.
        public var isExecutable: Bool

        /// Creates a file.
        public init(path: String, contents: String, isExecutable: Bool = false) {
            self.path = path
            self.contents = contents
            self.isExecutable = isExecutable
        }
    }

    /// The files of a new plugin's folder: `plugin.toml`, the program, `README.md` and, for Python,
    /// the SDK.
    ///
    /// - Parameters:
    ///   - name: The plugin's name, already checked (lowercase letters, digits and dashes).
    ///   - language: The language of its program.
    /// - Returns: The files, the program among them marked executable.
    public static func scaffold(name: String, language: Language) -> [File] {
        func text(_ bytes: [UInt8]) -> String {
            String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "{{NAME}}", with: name)
        }
        switch language {
        case .python:
            return [
                File(path: "plugin.toml", contents: text(PackageResources.python_plugin_toml)),
                File(path: "\(name).py", contents: text(PackageResources.python_program_py), isExecutable: true),
                File(path: "hooray_plugin.py", contents: python),
                File(path: "README.md", contents: text(PackageResources.python_README_md)),
            ]
        case .sh:
            return [
                File(path: "plugin.toml", contents: text(PackageResources.sh_plugin_toml)),
                File(path: "\(name).sh", contents: text(PackageResources.sh_program_sh), isExecutable: true),
                File(path: "README.md", contents: text(PackageResources.sh_README_md)),
            ]
        }
    }
}
