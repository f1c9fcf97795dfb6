import Foundation
import HoorayConfig
import HoorayKit
import HoorayText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `plugin.toml` the host cannot use, and why.
///
/// Its ``description`` is what `hooray plugins` shows: `plugin.toml:LINE:COLUMN: ` when the
/// problem is at one place in the file (`plugin.toml: ` otherwise), then what is wrong and how to
/// fix it, such as `plugin.toml:3:15: pomodoro speaks plugin API 99, and this Hooray speaks 1; …`.
public struct PluginManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of `plugin.toml` the problem is on, counting from 1, when it is on one.
    public var line: Int?
    /// The column, counting characters from 1, when known.
    public var column: Int?
    /// What is wrong and the fix, without the location.
    public var problem: String
    /// The plugin's name, when it was read before the problem was found.
    public var plugin: String?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - line: The line, when the problem is on one.
    ///   - column: The column, when known.
    ///   - problem: What is wrong and the fix.
    ///   - plugin: The plugin's name, when known.
    public init(line: Int? = nil, column: Int? = nil, problem: String, plugin: String? = nil) {
        self.line = line
        self.column = column
        self.problem = problem
        self.plugin = plugin
    }

    /// The problem after its place in `plugin.toml`.
    public var description: String {
        var place = "plugin.toml"
        if let line, line > 0 {
            place += ":\(line)"
            if let column, column > 0 { place += ":\(column)" }
        }
        return "\(place): \(problem)"
    }
}

extension PluginManifest {
    /// The largest `plugin.toml` the host reads: a manifest names a program and its commands, no more.
    public static let largestManifest = 256 * 1024

    /// The longest name a plugin, command, argument, option or flag may have.
    public static let longestName = 32

    /// Reads and checks the `plugin.toml` of a plugin's folder (see "The plugin protocol" in
    /// `docs/protocol.md`).
    ///
    /// Every key is checked: its type, its value, and that it is one `plugin.toml` knows (a misspelt
    /// key is refused with the key it was probably meant to be). The program in `exec` must be a
    /// regular, executable file inside the folder, reached without leaving it through `..` or a
    /// symbolic link. A command's `aliases` are other names within the plugin: `go` for
    /// `hooray pomodoro go`, stored in ``commands`` as `pomodoro go`, the way ``CommandSpec/aliases``
    /// names words from the top.
    ///
    /// - Parameter folder: The plugin's folder.
    /// - Returns: The manifest: its ``folder`` with symbolic links resolved, and its program as an
    ///   absolute path inside that folder.
    /// - Throws: ``PluginManifestError`` for the first problem found: a missing or unreadable file,
    ///   a TOML syntax error, a missing or wrong value, an unknown key, a program that cannot be run,
    ///   or an `api_version` range that does not meet ``hostAPIVersions``.
    public static func read(folder: String) throws(PluginManifestError) -> PluginManifest {
        let folder = ManifestFile.absolute(folder)
        let text = try ManifestFile.readText(folder: folder)
        let root: ConfigNode
        do {
            root = try ConfigFileParser.parse(text, file: "plugin.toml")
        } catch {
            let first = error.errors.first ?? error.diagnostics.first
            let problem = first.map { diagnostic in
                diagnostic.message + (diagnostic.hint.map { "; \($0)" } ?? "")
            }
            throw PluginManifestError(
                line: first?.location?.line, column: first?.location?.column,
                problem: problem ?? "the file is not valid TOML; check it with a TOML linter")
        }
        var reader = ManifestReader(root: root.table ?? ConfigTable(), folder: folder)
        return try reader.read()
    }
}

/// Reads `plugin.toml` from disk with POSIX calls, so that each failure can say why.
private enum ManifestFile {
    static func absolute(_ folder: String) -> String {
        var path = folder
        if !path.hasPrefix("/") {
            path = FileManager.default.currentDirectoryPath + "/" + path
        }
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    static func readText(folder: String) throws(PluginManifestError) -> String {
        let path = folder + "/plugin.toml"
        // Non-blocking, so that a FIFO named plugin.toml cannot stall discovery.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                var isFolder: ObjCBool = false
                if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
                    throw PluginManifestError(
                        problem: "there is no plugin folder \(folder); a plugin is a folder with a plugin.toml in it")
                }
                throw PluginManifestError(
                    problem: "there is no plugin.toml in \(folder); a plugin folder needs one that names the "
                        + "plugin and its program (`hooray plugin new NAME` writes a working one)")
            }
            throw PluginManifestError(
                problem: "cannot read \(path): \(reason(code)); make it readable by the user running hoorayd")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PluginManifestError(
                problem: "cannot read \(path): \(reason(errno)); make it a readable file")
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            throw PluginManifestError(
                problem: "\(path) is a folder; plugin.toml must be a file naming the plugin and its program")
        }
        guard type == S_IFREG else {
            throw PluginManifestError(
                problem: "\(path) is not a regular file; plugin.toml must be a file naming the plugin and its program")
        }
        if Int(status.st_size) > PluginManifest.largestManifest {
            throw tooLarge(bytes: Int(status.st_size))
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while bytes.count <= PluginManifest.largestManifest {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw PluginManifestError(problem: "cannot read \(path): \(reason(code)); make it a readable file")
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        // The file may have grown since `fstat`.
        if bytes.count > PluginManifest.largestManifest { throw tooLarge(bytes: bytes.count) }
        if let bad = FileReader.firstInvalidUTF8(in: bytes) {
            throw PluginManifestError(
                line: bad.line, column: bad.column, problem: "the file is not UTF-8 text; save it with UTF-8 encoding")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func tooLarge(bytes: Int) -> PluginManifestError {
        PluginManifestError(
            problem: "the file is \(bytes / 1024) KiB, more than the \(PluginManifest.largestManifest / 1024) KiB "
                + "a plugin.toml may have; keep to the plugin's name, program and commands")
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}

/// Checks a parsed `plugin.toml`, key by key, and builds the manifest.
struct ManifestReader {
    let root: ConfigTable
    let folder: String
    /// The plugin's name once read, for messages and for the errors' ``PluginManifestError/plugin``.
    var name: String?

    init(root: ConfigTable, folder: String) {
        self.root = root
        self.folder = folder
    }

    static let topLevelKeys = [
        "name", "version", "api_version", "description", "exec", "permissions", "commands", "limits", "card",
    ]

    // MARK: Errors

    func fail(at location: SourceLocation?, _ problem: String) -> PluginManifestError {
        PluginManifestError(line: location?.line, column: location?.column, problem: problem, plugin: name)
    }

    // MARK: The whole file

    mutating func read() throws(PluginManifestError) -> PluginManifest {
        // The name first, for the messages; then the API version, because a plugin made for another
        // API may well have keys this host does not know, and the version is then the real problem.
        if let node = root["name"], case .string(let text) = node.value, Self.isName(text) {
            name = text
        }
        let apiVersions = try readAPIVersions()
        try checkKeys(of: root, known: Self.topLevelKeys, in: "plugin.toml")
        let name = try readName()
        self.name = name
        let version = try requiredString("version", in: root, owner: nil, example: "version = \"1.0.0\"")
        let description =
            try optionalString("description", in: root, example: "description = \"What the plugin does.\"") ?? ""
        let (permissions, networkHosts) = try readPermissions()
        let commands = try readCommands(plugin: name)
        let program = try readExec()
        let limits = try readLimits()
        let card = try readCard(commands: commands)
        return PluginManifest(
            name: name, version: version, apiVersions: apiVersions, description: description, exec: program.exec,
            folder: program.folder, commands: commands, permissions: permissions, networkHosts: networkHosts,
            limits: limits, card: card)
    }

    // MARK: name

    static func isName(_ text: String) -> Bool {
        guard (1...PluginManifest.longestName).contains(text.count), let first = text.unicodeScalars.first,
            ("a"..."z").contains(first), !text.hasSuffix("-")
        else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A name close to one that is not allowed: `Pomodoro Timer` → `pomodoro-timer`.
    static func suggestedName(for text: String) -> String? {
        var suggestion = ""
        for scalar in text.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                suggestion.unicodeScalars.append(scalar)
            } else if [" ", "_", "-", "."].contains(scalar), !suggestion.isEmpty, !suggestion.hasSuffix("-") {
                suggestion += "-"
            }
        }
        while suggestion.hasSuffix("-") { suggestion.removeLast() }
        while let first = suggestion.unicodeScalars.first, !("a"..."z").contains(first) {
            suggestion.unicodeScalars.removeFirst()
        }
        if suggestion.count > PluginManifest.longestName {
            suggestion = String(suggestion.prefix(PluginManifest.longestName))
            while suggestion.hasSuffix("-") { suggestion.removeLast() }
        }
        return isName(suggestion) && suggestion != text ? suggestion : nil
    }

    /// Why a name is not one, and the fix.
    static func nameProblem(_ text: String, what: String, key: String, example: String) -> String {
        let rule =
            "use lowercase letters, digits and dashes, starting with a letter, at most \(PluginManifest.longestName) characters"
        if text.isEmpty {
            return "\(what) is empty; \(rule), such as \(key) = \"\(example)\""
        }
        let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
        let such = suggestedName(for: text) ?? example
        if text.count > PluginManifest.longestName {
            return "\(what) \"\(shown)\" is longer than \(PluginManifest.longestName) characters; "
                + "\(rule), such as \(key) = \"\(such)\""
        }
        return "\(what) \"\(shown)\" is not a name hooray can take; \(rule), such as \(key) = \"\(such)\""
    }

    func readName() throws(PluginManifestError) -> String {
        let text = try requiredString("name", in: root, owner: nil, example: "name = \"pomodoro\"")
        guard Self.isName(text) else {
            throw fail(
                at: root["name"]?.location,
                Self.nameProblem(text, what: "the plugin's name", key: "name", example: "pomodoro"))
        }
        return text
    }

    // MARK: api_version

    func readAPIVersions() throws(PluginManifestError) -> ClosedRange<Int> {
        let host = PluginManifest.hostAPIVersions
        let hostText = Self.versionsText(host)
        guard let node = root["api_version"] else {
            throw fail(
                at: nil,
                "`api_version` is missing; add the plugin API versions the plugin speaks, such as api_version = \(host.upperBound)"
            )
        }
        let range: ClosedRange<Int>
        switch node.value {
        case .integer(let version):
            guard version >= 1 else {
                throw fail(
                    at: node.location,
                    "`api_version` is \(version), and plugin API versions start at 1; "
                        + "write the version the plugin speaks, such as api_version = \(host.upperBound)")
            }
            range = version...version
        case .array(let elements):
            let versions = elements.compactMap { element -> Int? in
                if case .integer(let version) = element.value { return version }
                return nil
            }
            guard elements.count == 2, versions.count == 2 else {
                throw fail(
                    at: node.location,
                    "`api_version` must be one version or two, the lowest and the highest the plugin speaks, "
                        + "such as api_version = \(host.upperBound) or api_version = [1, 2]; found \(node.kindDescription) "
                        + "of \(elements.count) value\(elements.count == 1 ? "" : "s")")
            }
            guard versions[0] >= 1 else {
                throw fail(
                    at: elements[0].location,
                    "`api_version` starts at \(versions[0]), and plugin API versions start at 1; "
                        + "write the versions the plugin speaks, such as api_version = [1, 2]")
            }
            guard versions[0] <= versions[1] else {
                throw fail(
                    at: node.location,
                    "`api_version` is [\(versions[0]), \(versions[1])], and the lowest version must come first; "
                        + "write api_version = [\(versions[1]), \(versions[0])]")
            }
            range = versions[0]...versions[1]
        default:
            throw fail(
                at: node.location,
                "`api_version` must be an integer or a list of two, such as api_version = \(host.upperBound) "
                    + "or api_version = [1, 2]; found \(node.kindDescription)")
        }
        guard range.overlaps(host) else {
            let who = name ?? "the plugin"
            let fix =
                range.lowerBound > host.upperBound
                ? "install a version of the plugin made for API \(hostText), or a newer Hooray"
                : "install a newer version of the plugin, made for API \(hostText)"
            throw fail(
                at: node.location,
                "\(who) speaks plugin API \(Self.versionsText(range)), and this Hooray speaks \(hostText); \(fix)")
        }
        return range
    }

    static func versionsText(_ range: ClosedRange<Int>) -> String {
        range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
    }

    // MARK: exec

    func readExec() throws(PluginManifestError) -> (folder: String, exec: [String]) {
        guard let node = root["exec"] else {
            throw fail(at: nil, "`exec` is missing; add the program to run, such as exec = [\"main.py\"]")
        }
        var words: [(text: String, location: SourceLocation?)] = []
        switch node.value {
        case .string(let text):
            words = [(text, node.location)]
        case .array(let elements):
            for element in elements {
                guard case .string(let text) = element.value else {
                    throw fail(
                        at: element.location,
                        "`exec` holds the program and its arguments as strings, such as exec = [\"main.py\", \"--quiet\"]; "
                            + "found \(element.kindDescription)")
                }
                words.append((text, element.location))
            }
        default:
            throw fail(
                at: node.location,
                "`exec` must be the program's path, or a list of the program and its arguments, such as "
                    + "exec = [\"main.py\"]; found \(node.kindDescription)")
        }
        guard let program = words.first else {
            throw fail(at: node.location, "`exec` is empty; add the program to run, such as exec = [\"main.py\"]")
        }
        for word in words where word.text.unicodeScalars.contains("\u{0}") {
            throw fail(at: word.location, "`exec` holds a NUL character, which no program can be given; remove it")
        }
        let resolved = try resolveProgram(program.text, at: program.location)
        return (resolved.folder, [resolved.program] + words.dropFirst().map(\.text))
    }

    /// Finds the program inside the folder: not absolute, not leaving it through `..` or a symbolic
    /// link, a regular file, executable.
    func resolveProgram(_ program: String, at location: SourceLocation?) throws(PluginManifestError) -> (
        folder: String, program: String
    ) {
        let example = "such as exec = [\"main.py\"] (a script starts with a line such as #!/usr/bin/env python3)"
        guard !program.isEmpty else {
            throw fail(at: location, "the program in `exec` is empty; name a file in the plugin's folder, \(example)")
        }
        if program.hasPrefix("/") {
            throw fail(
                at: location,
                "`exec` names \(program), outside the plugin's folder; put the program in the folder and name it "
                    + "relative to the folder, \(example)")
        }
        var depth = 0
        for component in program.split(separator: "/") {
            if component == ".." {
                depth -= 1
                if depth < 0 {
                    throw fail(
                        at: location,
                        "`exec` names \(program), which leaves the plugin's folder; put the program in the folder "
                            + "and name it relative to the folder, \(example)")
                }
            } else if component != "." {
                depth += 1
            }
        }
        guard let realFolder = Self.realPath(folder) else {
            throw fail(at: nil, "cannot find the plugin's folder \(folder); check that it exists")
        }
        let path = realFolder + "/" + program
        guard let real = Self.realPath(path) else {
            var status = stat()
            if lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK {
                throw fail(
                    at: location,
                    "`exec` names \(program), a symbolic link to nothing; put the program itself in the folder")
            }
            var problem = "`exec` names \(program), and there is no such file in \(folder)"
            if !program.contains("/") && Self.isInterpreter(program) {
                problem +=
                    "; the program must be a file in the plugin's folder: name the script and start it with "
                    + "#!/usr/bin/env \(program), such as exec = [\"main.py\"]"
            } else {
                problem += "; put the program there, or correct its name"
            }
            throw fail(at: location, problem)
        }
        guard real.hasPrefix(realFolder + "/") else {
            throw fail(
                at: location,
                "`exec` names \(program), a symbolic link to \(real), outside the plugin's folder; copy the program "
                    + "into the folder instead")
        }
        var status = stat()
        guard stat(real, &status) == 0 else {
            throw fail(
                at: location, "cannot look at \(program): \(ManifestFile.reason(errno)); check its permissions")
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR {
            throw fail(at: location, "`exec` names \(program), a folder; name the program file in it instead")
        }
        guard type == S_IFREG else {
            throw fail(
                at: location, "`exec` names \(program), which is not a regular file; name the program file instead")
        }
        guard access(real, X_OK) == 0 else {
            throw fail(
                at: location,
                "\(program) is not executable; make it so with chmod +x \(Self.shellQuoted(real))")
        }
        return (realFolder, real)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isInterpreter(_ word: String) -> Bool {
        let base = word.prefix { !("0"..."9").contains($0) && $0 != "." }
        return ["python", "sh", "bash", "node", "ruby", "perl", "deno", "bun", "lua", "php"].contains(base)
    }

    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "/._-+".unicodeScalars.contains($0)
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Keys and types

    /// Refuses a key `plugin.toml` does not know, with the one it was probably meant to be.
    func checkKeys(of table: ConfigTable, known: [String], in place: String) throws(PluginManifestError) {
        for key in table.keys where !known.contains(key) {
            var problem = "\(place) has no key `\(key)`"
            if let near = NameSuggestion.closest(to: key, among: known) {
                problem += "; did you mean `\(near)`?"
            } else {
                let list = known.map { "`\($0)`" }
                problem +=
                    "; remove it (\(place) takes \(list.dropLast().joined(separator: ", ")) and \(list.last ?? ""))"
            }
            throw fail(at: table.keyLocation(of: key) ?? table[key]?.location, problem)
        }
    }

    func requiredString(
        _ key: String, in table: ConfigTable, owner: String?, at location: SourceLocation? = nil, example: String
    ) throws(PluginManifestError) -> String {
        guard let text = try optionalString(key, in: table, example: example) else {
            let whose = owner.map { "\($0) has no `\(key)`" } ?? "`\(key)` is missing"
            throw fail(at: location, "\(whose); add one, such as \(example)")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            let whose = owner.map { "`\(key)` of \($0)" } ?? "`\(key)`"
            throw fail(at: table[key]?.location, "\(whose) is empty; write it, such as \(example)")
        }
        return text
    }

    func optionalString(_ key: String, in table: ConfigTable, example: String) throws(PluginManifestError)
        -> String?
    {
        guard let node = table[key] else { return nil }
        guard case .string(let text) = node.value else {
            throw fail(
                at: node.location, "`\(key)` must be a string, such as \(example); found \(node.kindDescription)")
        }
        return text
    }

    func optionalStrings(_ key: String, in table: ConfigTable, example: String) throws(PluginManifestError)
        -> [String]?
    {
        guard let node = table[key] else { return nil }
        guard let elements = node.array else {
            throw fail(
                at: node.location,
                "`\(key)` must be a list of strings, such as \(example); found \(node.kindDescription)")
        }
        var texts: [String] = []
        for element in elements {
            guard case .string(let text) = element.value else {
                throw fail(
                    at: element.location,
                    "`\(key)` must hold strings only, such as \(example); found \(element.kindDescription)")
            }
            texts.append(text)
        }
        return texts
    }

    func optionalBool(_ key: String, in table: ConfigTable) throws(PluginManifestError) -> Bool? {
        guard let node = table[key] else { return nil }
        guard case .boolean(let flag) = node.value else {
            throw fail(
                at: node.location,
                "`\(key)` must be true or false, without quotes, such as \(key) = true; found \(node.kindDescription)")
        }
        return flag
    }
}
