/// A TOML document: the text as written, kept byte for byte in ``syntax``, and what it means, in
/// ``root``, with every mistake in ``diagnostics``.
///
/// The reader is Hooray's own and needs nothing but the standard library. It reads TOML 1.0.0 and
/// TOML 1.1.0 (the default). It never traps nor throws, whatever it is given: lists and inline
/// tables nested more than 128 deep, and keys of more than 128 parts, are refused with a diagnostic;
/// it reads in one pass, in time linear in the size of the text.
public struct TOMLDocument: Sendable {
    /// Every mistake, in file order; empty when the document is valid. After 100, one more says how
    /// many were left out.
    public private(set) var diagnostics: [TOMLDiagnostic]
    /// The values; with mistakes, what could be read (a line that could not be read is left out,
    /// and so are the keys under a header that could not be read).
    public private(set) var root: TOMLTable
    /// The concrete syntax tree. See ``TOMLSyntaxKind`` for its shape.
    public internal(set) var syntax: TOMLSyntaxNode
    public let version: TOMLVersion

    /// Reads a document.
    public init(parsing text: String, version: TOMLVersion = .v1_1) {
        self.init(bytes: Array(text.utf8), version: version, encodingProblems: [])
    }

    /// Reads a document given as bytes; bytes that are not UTF-8 are reported where they are (and
    /// read as U+FFFD, so ``text`` then differs from them).
    public init(parsing bytes: [UInt8], version: TOMLVersion = .v1_1) {
        let problems = UTF8Check.problems(in: bytes, limit: Parser.maximumDiagnostics)
        guard !problems.isEmpty else {
            self.init(bytes: bytes, version: version, encodingProblems: [])
            return
        }
        let diagnostics = bytes.withUnsafeBufferPointer { buffer in
            var tracker = PositionTracker(bytes: buffer)
            return problems.map { problem in
                TOMLDiagnostic(
                    at: tracker.position(at: problem.offset), "the file is not UTF-8 text: \(problem.message)",
                    hint: "save the file as UTF-8")
            }
        }
        self.init(
            bytes: Array(String(decoding: bytes, as: UTF8.self).utf8), version: version, encodingProblems: diagnostics)
    }

    private init(bytes: [UInt8], version: TOMLVersion, encodingProblems: [TOMLDiagnostic]) {
        let (syntax, root, found) = Parser.parse(bytes, version: version) { parser in
            (parser.parseDocument(), parser.builder.finishedRoot(), parser.finishedDiagnostics())
        }
        self.syntax = syntax
        self.root = root
        self.version = version
        diagnostics = encodingProblems.isEmpty ? found : encodingProblems + found
    }

    /// Only the values and the mistakes of a document: faster than a ``TOMLDocument`` when the text
    /// will not be edited nor printed, as no syntax tree is built.
    public static func values(
        parsing text: String, version: TOMLVersion = .v1_1
    ) -> (root: TOMLTable, diagnostics: [TOMLDiagnostic]) {
        func read(_ buffer: UnsafeBufferPointer<UInt8>) -> (root: TOMLTable, diagnostics: [TOMLDiagnostic]) {
            // A long list of tables is read in two halves at once (``ListSplit``).
            if let halves = ListSplit.values(of: buffer, version: version) { return halves }
            var parser = Parser(bytes: buffer, version: version, buildsSyntax: false)
            _ = parser.parseDocument()
            return (parser.builder.finishedRoot(), parser.finishedDiagnostics())
        }
        // The bytes of a native string are read where they are, without a copy.
        if let result = text.utf8.withContiguousStorageIfAvailable(read) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(read)
    }

    /// The document printed from ``syntax``: the text it was read from, as long as it is unchanged.
    public var text: String { syntax.description }

    /// Whether the document was read without a mistake.
    public var isValid: Bool { diagnostics.isEmpty }
}
