import HoorayKit
import HoorayTOML

/// Changes one key of the user's own configuration file the way `hooray config set` and `unset`
/// do: only that key's text changes, the result is checked with the same decoder and messages as
/// every configuration file, and it is written atomically, or not at all.
///
/// The file written is the `--config` file when one is given, else the user's `hooray.toml`
/// (``ConfigPaths/userFile``), created when missing; never a system file.
public struct ConfigFileEditor: Sendable {
    /// The loader whose layers are checked with the edit in place.
    public var loader: ConfigLoader
    /// The file written.
    public var file: String
    /// Run between the last check of the file and its replacement (for tests of a file changed meanwhile).
    public var beforeWrite: (@Sendable () -> Void)?

    /// A change to make.
    public enum Change: Sendable {
        /// Sets a key to a value, adding it when the file does not have it.
        case set([String], TOMLLiteral)
        /// Removes a key, or a whole table.
        case remove([String])
        /// Adds a `[[path]]` table with these keys at the end of the others.
        case appendArrayTable([String], [(String, TOMLLiteral)])
    }

    /// What an edit did.
    public struct Outcome: Sendable {
        /// The file written.
        public var file: String
        /// Whether the file was created.
        public var created: Bool
        /// Whether the file's text changed (setting a key to the value it has changes nothing).
        public var changed: Bool
        /// A later layer that sets the same key, and so wins over the edit; `nil` when none does.
        public var overriddenBy: String?
    }

    /// Creates an editor of the file a loader's `--config` names, or else of the user's own file.
    ///
    /// - Throws: ``ConfigEditRefusal`` when that file is in the system's configuration folder.
    public init(loader: ConfigLoader) throws(ConfigEditRefusal) {
        self.loader = loader
        file = loader.explicitFile ?? loader.paths.userFile
        let real = ConfigFileSnapshot.resolved(file)
        let system = ConfigFileSnapshot.resolved(loader.paths.systemDirectory)
        if real.hasPrefix(system.hasSuffix("/") ? system : system + "/") {
            throw ConfigEditRefusal(
                .usage, "\(file) is a system configuration file; hooray changes only your own",
                hint: "leave out --config to change \(loader.paths.userFile), or edit \(file) as its owner")
        }
    }

    /// Sets a key to a value typed on the command line.
    ///
    /// The value is read as TOML (`true`, `3`, `"text"`, `["mon", "fri"]`); words that are not TOML,
    /// such as `off` or `21:30`, are a string. A TOML value the key refuses is also tried as a
    /// string, so `hooray config set … title 2026` gives the title "2026".
    ///
    /// - Returns: What was done and the value written.
    /// - Throws: ``ConfigEditRefusal``; the file is then untouched.
    public func set(_ path: [String], typed text: String) throws(ConfigEditRefusal) -> (Outcome, TOMLLiteral) {
        let asString = TOMLLiteral.string(text)
        guard let literal = TOMLLiteral(parsing: text) else {
            return (try apply(.set(path, asString)), asString)
        }
        do {
            return (try apply(.set(path, literal)), literal)
        } catch let refusal where refusal.kind == .configuration && refusal.diagnostics.count > 0 {
            if case .string = literal { throw refusal }
            guard let outcome = try? apply(.set(path, asString)) else { throw refusal }
            return (outcome, asString)
        }
    }

    /// Makes a change: reads the file, edits its text, checks the configuration with the edit in
    /// place, and writes it.
    ///
    /// - Throws: ``ConfigEditRefusal``; the file is then untouched.
    public func apply(_ change: Change) throws(ConfigEditRefusal) -> Outcome {
        let snapshot = try ConfigFileSnapshot.read(file)
        var document = TOMLDocument(parsing: snapshot.text)
        if let first = document.diagnostics.first {
            throw ConfigEditRefusal(
                .configuration,
                "\(file):\(first.line):\(first.column): \(first.message); nothing was changed",
                hint: (first.hint.map { $0 + "; " } ?? "")
                    + "fix the file first (`hooray config check` lists every problem), then run the command again")
        }
        do {
            switch change {
            case .set(let path, let value): try document.set(path, to: value)
            case .remove(let path): try document.remove(path)
            case .appendArrayTable(let path, let entries): try document.appendArrayTable(path, entries: entries)
            }
        } catch {
            throw ConfigEditRefusal(.usage, error.message, hint: error.hint)
        }
        let edited = document.text
        let changed = edited != snapshot.text
        if changed {
            try check(edited, against: snapshot.text, change: change)
            try snapshot.write(edited, beforeWrite: beforeWrite)
        }
        return Outcome(
            file: file, created: snapshot.bytes == nil && changed, changed: changed,
            overriddenBy: overridingFile(change))
    }

    /// Refuses an edit that makes the configuration worse: a new error anywhere, or a new warning
    /// (an unknown key, a plugin that is not installed), each with the decoder's own message and fix.
    func check(_ edited: String, against original: String, change: Change) throws(ConfigEditRefusal) {
        var before = loader
        before.replacedTexts[file] = original
        var after = loader
        after.replacedTexts[file] = edited
        let old = Set(before.evaluate(before.layers()).diagnostics.map(Self.identity))
        let problems = after.evaluate(after.layers()).diagnostics.diagnostics.filter {
            !old.contains(Self.identity($0))
        }
        guard !problems.isEmpty else { return }
        let what: String
        switch change {
        case .set(let path, _): what = "\(ConfigKeyText.text(path)) was not set"
        case .remove(let path): what = "\(ConfigKeyText.text(path)) was not removed"
        case .appendArrayTable(let path, _): what = "no [[\(ConfigKeyText.text(path))]] was added"
        }
        let errors = problems.filter(\.isError).count
        let counts = [(errors, "error"), (problems.count - errors, "warning")].filter { $0.0 > 0 }
        throw ConfigEditRefusal(
            .configuration,
            "\(what): the configuration would have "
                + counts.map { Self.count($0.0, $0.1) }.joined(separator: " and ") + "; \(file) is unchanged",
            diagnostics: problems)
    }

    /// A diagnostic without its place: the edit moves the lines below it.
    static func identity(_ diagnostic: ConfigDiagnostic) -> String {
        "\(diagnostic.severity)\u{0}\(diagnostic.path?.description ?? "")\u{0}\(diagnostic.message)"
    }

    static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }

    /// A later layer's file that sets the key just set.
    func overridingFile(_ change: Change) -> String? {
        guard case .set(let path, _) = change else { return nil }
        let evaluation = loader.evaluate(loader.layers())
        guard let node = evaluation.root.node(at: ConfigKeyPath(keys: path)), let source = node.location?.file,
            source != file
        else { return nil }
        return source
    }
}
