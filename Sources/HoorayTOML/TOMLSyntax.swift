/// What a node of the concrete syntax tree is.
///
/// Tokens hold text (``TOMLSyntaxNode/text``); the others hold children.
public enum TOMLSyntaxKind: Sendable, Hashable {
    // Nodes.
    /// The whole file: an optional ``byteOrderMark`` token, then one ``section`` for the keys above the
    /// first header (possibly empty), then one ``section`` for each header.
    case document
    /// A header (``tableHeader``, ``arrayTableHeader``, or an ``invalid`` token for a header that could
    /// not be read; none in the first section), then the lines below it up to the next header: a
    /// ``keyValue`` node for each key line; for blank and comment lines, ``whitespace``, ``comment`` and
    /// ``newline`` tokens; an ``invalid`` token for each line that could not be read.
    case section
    /// `[name]` and its whole line: optional ``whitespace`` (indentation), ``bracketOpen``, optional
    /// ``whitespace``, ``key``, optional ``whitespace``, ``bracketClose``, then optional ``whitespace``,
    /// ``comment`` and ``newline`` (no ``newline`` at the end of the file).
    case tableHeader
    /// `[[name]]`: as ``tableHeader`` with ``doubleBracketOpen`` and ``doubleBracketClose``.
    case arrayTableHeader
    /// `key = value`. At the top level the node holds its whole line: optional ``whitespace``
    /// (indentation), ``key``, optional ``whitespace``, ``equals``, optional ``whitespace``, the value,
    /// then optional ``whitespace``, ``comment`` and ``newline`` (none at the end of the file).
    /// Inside an inline table it holds only `key = value` (the space around it belongs to the table).
    case keyValue
    /// A key, dotted or not: ``bareKey``, ``basicString`` or ``literalString`` tokens, with ``dot`` tokens
    /// (and any ``whitespace`` around them) between them.
    case key
    /// `[ ... ]`: ``bracketOpen``, then values with ``comma`` tokens and ``whitespace``, ``newline`` and
    /// ``comment`` tokens between them, then ``bracketClose``.
    case array
    /// `{ ... }`: ``braceOpen``, ``keyValue`` nodes with ``comma``, ``whitespace`` (and in TOML 1.1
    /// ``newline`` and ``comment``) tokens between them, then ``braceClose``.
    case inlineTable

    // Tokens.
    case byteOrderMark
    /// Spaces and tabs.
    case whitespace
    /// `\n` or `\r\n`.
    case newline
    /// From `#` to the end of the line, the line's end excluded.
    case comment
    case bareKey
    case basicString
    case literalString
    case multilineBasicString
    case multilineLiteralString
    case integer
    case float
    case boolean
    /// A date, a time or both, as written.
    case dateTime
    case dot
    case equals
    case comma
    case bracketOpen
    case bracketClose
    case doubleBracketOpen
    case doubleBracketClose
    case braceOpen
    case braceClose
    /// Text that could not be read, kept as it is: from the start of a line to the end of the line
    /// where the mistake was found (which can be a later line, in an unclosed list or string).
    case invalid

    /// Whether nodes of this kind are tokens, holding text and no children.
    public var isToken: Bool {
        switch self {
        case .document, .section, .tableHeader, .arrayTableHeader, .keyValue, .key, .array, .inlineTable: false
        default: true
        }
    }

    /// Whether a token of this kind is a value.
    public var isScalarValue: Bool {
        switch self {
        case .basicString, .literalString, .multilineBasicString, .multilineLiteralString, .integer, .float,
            .boolean, .dateTime:
            true
        default: false
        }
    }
}

/// A node of the concrete syntax tree, which keeps every byte of the document: printing it gives the
/// document back, byte for byte. See ``TOMLSyntaxKind`` for the shape of each node: whitespace,
/// comments and line ends belong to the line they are on (a key's line, a header's line), and lines
/// holding only them are tokens of their ``TOMLSyntaxKind/section``.
public struct TOMLSyntaxNode: Sendable, Hashable, CustomStringConvertible {
    public var kind: TOMLSyntaxKind
    /// The text of a token; empty for other nodes.
    public var text: String
    /// The children of a node; empty for tokens.
    public var children: [TOMLSyntaxNode]

    /// A token.
    public init(token kind: TOMLSyntaxKind, text: String) {
        self.kind = kind
        self.text = text
        self.children = []
    }

    /// A node holding others.
    public init(_ kind: TOMLSyntaxKind, children: [TOMLSyntaxNode]) {
        self.kind = kind
        self.text = ""
        self.children = children
    }

    /// Appends the node's text.
    public func write(to output: inout String) {
        if kind.isToken {
            output += text
        } else {
            for child in children { child.write(to: &output) }
        }
    }

    /// The node's text, as in the file.
    public var description: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The length of the node's text in UTF-8 bytes.
    public var utf8Count: Int {
        kind.isToken ? text.utf8.count : children.reduce(0) { $0 + $1.utf8Count }
    }

    /// The ``TOMLSyntaxKind/key`` child of a ``TOMLSyntaxKind/keyValue`` or header node.
    public var key: TOMLSyntaxNode? { children.first { $0.kind == .key } }

    /// Where the value is among the children of a ``TOMLSyntaxKind/keyValue`` node.
    public var valueIndex: Int? {
        guard let equals = children.firstIndex(where: { $0.kind == .equals }) else { return nil }
        return children[(equals + 1)...].firstIndex { $0.kind != .whitespace }
    }

    /// The value of a ``TOMLSyntaxKind/keyValue`` node.
    public var value: TOMLSyntaxNode? { valueIndex.map { children[$0] } }

    /// The parts of a ``TOMLSyntaxKind/key`` node (or of the key of a key-value or header node),
    /// unquoted: `a."b.c".d` gives `["a", "b.c", "d"]`.
    public var keyParts: [String] {
        let key = kind == .key ? self : (self.key ?? TOMLSyntaxNode(.key, children: []))
        return key.children.compactMap { part in
            switch part.kind {
            case .bareKey: part.text
            case .basicString, .literalString: Parser.decodeKeyToken(part.text)
            default: nil
            }
        }
    }
}
