/// One part of a key, unquoted, and where it is written.
struct KeyPart {
    var name: String
    var position: TOMLPosition
}

/// Builds ``TOMLDocument/root`` as the parser goes, in place, enforcing TOML's rules on defining
/// keys and tables: no key twice; a `[table]` once (a table only made by a longer header may get
/// its own later); dotted keys only add to tables they made; inline tables and lists closed for good.
struct SemanticBuilder {
    struct Failure {
        var position: TOMLPosition
        var message: String
        var hint: String?
    }

    /// What sits at a key, without holding on to it (so the table can be changed in place).
    enum Shape {
        case table(TOMLTable.Origin)
        case arrayOfTables
        case value
    }

    /// The tree, but for the table of the current section, which is held in ``current`` while its keys
    /// are read (and so changed in place without a walk from the root for each key); the tree holds a
    /// placeholder in its place. Empty while ``current`` holds the root itself.
    private var root = TOMLTable()
    /// The table the keys of the current section go to.
    private var current = TOMLTable(origin: .root, position: .start)
    /// Whether ``current`` holds the table of an open section, to be put back at ``path`` when it
    /// ends. False after a header that could not be read or defined: its keys are read but go nowhere.
    private var holding = true
    /// The entries leading from the root to the table of the current section (or to its array of
    /// tables); empty for the root.
    private var path: [Int] = []
    /// When the current section is an element of an array of tables: the elements before it, taken
    /// out of the tree with it, so that the next `[[name]]` of the same name only adds one.
    private var heldElements: [TOMLItem]?
    private var names: [String] = []
    /// The most keys an element of the held array of tables has (see ``addElement(position:)``).
    private var elementKeys = 0

    /// The tree, once every key has been read.
    mutating func finishedRoot() -> TOMLTable {
        putBack()
        return root
    }

    mutating func sectionFailed() { putBack() }

    /// Puts the table of the current section back in the tree.
    private mutating func putBack() {
        guard holding else { return }
        holding = false
        let table = current
        current = TOMLTable()
        guard let last = path.last else {
            root = table
            return
        }
        var value = TOMLValue.table(table)
        if var elements = heldElements {
            heldElements = nil
            elements.append(TOMLItem(value: value, position: table.position))
            value = .array(elements)
        }
        Self.withTable(&root, path.dropLast()) { parent in parent.modifyValue(at: last) { $0.value = value } }
    }

    /// Takes the table at ``path`` out of the tree into ``current``.
    private mutating func takeOut(isArray: Bool) {
        holding = true
        guard let last = path.last else {
            current = root
            root = TOMLTable()
            return
        }
        var value = TOMLValue.boolean(false)
        Self.withTable(&root, path.dropLast()) { parent in parent.modifyValue(at: last) { value = $0.value.take() } }
        if isArray, var elements = value.takeArray(), let element = elements.popLast(),
            case .table(let table) = element.value
        {
            current = table
            heldElements = elements
            elementKeys = 0
        } else {
            current = value.takeTable() ?? TOMLTable()
            heldElements = nil
        }
    }

    mutating func openTable(_ keys: ArraySlice<KeyPart>, isArray: Bool, position: TOMLPosition) -> Failure? {
        // `[[name]]` again after an element of `name`: one more element.
        if isArray, addsElement, keys.count == names.count, zip(keys, names).allSatisfy({ $0.name == $1 }) {
            addElement(position: position)
            return nil
        }
        putBack()
        var newPath: [Int] = []
        let failure = Self.define(&root, keys, isArray: isArray, position: position, all: keys, path: &newPath)
        if failure == nil {
            path = newPath
            names = keys.map(\.name)
            takeOut(isArray: isArray)
        }
        return failure
    }

    /// Whether the current section is an element of an array of tables, so that another `[[name]]`
    /// of its name only adds one (see ``addElement(position:)``).
    var addsElement: Bool { holding && heldElements != nil }

    /// `[[name]]` again, right after an element of `name`: one more element, the current section.
    mutating func addElement(position: TOMLPosition) {
        guard var elements = heldElements else { return }
        heldElements = nil
        // The elements of a list of tables mostly have the same keys: room for as many as the
        // largest element so far has.
        elementKeys = max(elementKeys, current.count)
        let element = current
        current = TOMLTable(origin: .arrayElement, position: position)
        current.reserveCapacity(elementKeys)
        elements.append(TOMLItem(value: .table(element), position: element.position))
        heldElements = elements
    }

    mutating func setValue(_ keys: ArraySlice<KeyPart>, _ item: TOMLItem) -> Failure? {
        guard holding else { return nil }
        return Self.insert(&current, keys, item, prefix: names, all: keys)
    }

    /// Whether the keys read now go to a table (they go nowhere after a header that could not be read).
    var acceptsKeys: Bool { holding }

    /// Whether the table of the current section has a key of its own.
    func currentTableHas(_ key: String) -> Bool { current.entryIndex(of: key) != nil }

    /// Adds a key the table of the current section does not have (see ``currentTableHas(_:)``).
    mutating func addToCurrentTable(_ entry: consuming TOMLTable.Entry) { current.append(entry) }

    static func withTable<Result>(
        _ table: inout TOMLTable, _ path: ArraySlice<Int>, _ body: (inout TOMLTable) -> Result
    ) -> Result {
        guard let first = path.first else { return body(&table) }
        return table.modifyChild(at: first) { child in withTable(&child, path.dropFirst(), body) }
    }

    static func shape(of table: TOMLTable, at position: Int) -> Shape {
        switch table.entries[position].item.value {
        case .table(let child): return .table(child.origin)
        case .array(let items):
            if case .table(let first)? = items.first?.value, first.origin == .arrayElement { return .arrayOfTables }
            return .value
        default: return .value
        }
    }

    /// `a.b."c d"`, for messages.
    static func dotted(_ names: [String]) -> String {
        names.map { name in
            !name.isEmpty && name.utf8.allSatisfy(Byte.isBareKey) ? name : "\"" + name + "\""
        }.joined(separator: ".")
    }

    /// `[a.b.c]` or `[[a.b.c]]`: walks the keys from `table`, making the tables missing on the way.
    static func define(
        _ table: inout TOMLTable, _ keys: ArraySlice<KeyPart>, isArray: Bool, position: TOMLPosition,
        all: ArraySlice<KeyPart>, path: inout [Int]
    ) -> Failure? {
        guard let key = keys.first else { return nil }
        let isLast = keys.count == 1
        var name: String { dotted(all[...keys.startIndex].map(\.name)) }
        guard let found = table.entryIndex(of: key.name) else {
            let item: TOMLItem
            if isLast && isArray {
                let element = TOMLItem(
                    value: .table(TOMLTable(origin: .arrayElement, position: position)), position: position)
                item = TOMLItem(value: .array([element]), position: position)
            } else {
                let child = TOMLTable(origin: isLast ? .header : .implicit, position: isLast ? position : key.position)
                item = TOMLItem(value: .table(child), position: child.position)
            }
            table.append(TOMLTable.Entry(key: key.name, keyPosition: key.position, item: item))
            path.append(table.count - 1)
            if isLast { return nil }
            return table.modifyChild(at: table.count - 1) {
                define(&$0, keys.dropFirst(), isArray: isArray, position: position, all: all, path: &path)
            }
        }
        path.append(found)
        switch shape(of: table, at: found) {
        case .table(let origin):
            if isLast {
                if isArray {
                    return Failure(
                        position: position,
                        message: "`\(name)` is already a table, so it cannot also be a list of tables [[\(name)]]",
                        hint: "write [\(name)] once, or [[\(name)]] for each of its tables")
                }
                switch origin {
                case .implicit:
                    table.modifyChild(at: found) {
                        $0.origin = .header
                        $0.position = position
                    }
                    return nil
                case .inline:
                    return Failure(
                        position: position,
                        message: "`\(name)` is already set to an inline table, so it cannot also be a [\(name)] table",
                        hint: "put all its keys in the { } or all under the [\(name)] header")
                case .dotted:
                    return Failure(
                        position: position,
                        message: "`\(name)` is already a table made by dotted keys (\(name).key = ...), "
                            + "so it cannot also have a [\(name)] header",
                        hint: "put all its keys under one [\(name)] header")
                default:
                    return Failure(
                        position: position, message: "the table [\(name)] is defined twice",
                        hint: "put all its keys under one [\(name)] header; write [[\(name)]] for a list of tables")
                }
            }
            if origin == .inline {
                return Failure(
                    position: position,
                    message: "`\(name)` is already set to an inline table, so no table can be added inside it",
                    hint: "put all its keys in the { } or write it as a [\(name)] table")
            }
        case .arrayOfTables:
            if isLast && !isArray {
                return Failure(
                    position: position,
                    message:
                        "`\(name)` is already a list of tables ([[\(name)]]), so it cannot also be a [\(name)] table",
                    hint: "write [[\(name)]] to add another element")
            }
            if isLast {
                table.modifyValue(at: found) { item in
                    guard var items = item.value.takeArray() else { return }
                    items.append(
                        TOMLItem(
                            value: .table(TOMLTable(origin: .arrayElement, position: position)), position: position))
                    item.value = .array(items)
                }
                return nil
            }
        case .value:
            return Failure(
                position: position, message: "`\(name)` is already set to a value, so it cannot also be a table",
                hint: "rename one of the two")
        }
        return table.modifyChild(at: found) {
            define(&$0, keys.dropFirst(), isArray: isArray, position: position, all: all, path: &path)
        }
    }

    /// `a.b.c = value` in `table`: dotted keys make tables, or add to tables dotted keys made.
    static func insert(
        _ table: inout TOMLTable, _ keys: ArraySlice<KeyPart>, _ item: TOMLItem, prefix: [String],
        all: ArraySlice<KeyPart>
    ) -> Failure? {
        guard let key = keys.first else { return nil }
        var name: String { dotted(prefix + all[...keys.startIndex].map(\.name)) }
        let found = table.entryIndex(of: key.name)
        if keys.count == 1 {
            if let found {
                if case .value = shape(of: table, at: found) {
                    return Failure(
                        position: key.position, message: "`\(name)` is set twice",
                        hint: "a key may appear once in each table; "
                            + "to override a value, put it in a later file such as conf.d/")
                }
                return Failure(
                    position: key.position,
                    message: "`\(name)` is already a table, so it cannot also be set to a value",
                    hint: "rename one of the two")
            }
            table.append(TOMLTable.Entry(key: key.name, keyPosition: key.position, item: item))
            return nil
        }
        if let found {
            switch shape(of: table, at: found) {
            case .table(.dotted):
                break
            case .value, .table(.inline):
                return Failure(
                    position: key.position,
                    message: "`\(name)` is already set to a value, so it cannot also have keys below it",
                    hint: "rename one of the two")
            case .table, .arrayOfTables:
                return Failure(
                    position: key.position,
                    message: "the table [\(name)] is already defined, so dotted keys cannot add to it",
                    hint: "put these keys under its [\(name)] header")
            }
            return table.modifyChild(at: found) { insert(&$0, keys.dropFirst(), item, prefix: prefix, all: all) }
        }
        let child = TOMLTable(origin: .dotted, position: key.position)
        table.append(
            TOMLTable.Entry(
                key: key.name, keyPosition: key.position, item: TOMLItem(value: .table(child), position: key.position)))
        return table.modifyChild(at: table.count - 1) { insert(&$0, keys.dropFirst(), item, prefix: prefix, all: all) }
    }
}
