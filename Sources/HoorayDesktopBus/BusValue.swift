import CLibNotify

/// A D-Bus value to send, built into a GVariant only when it is sent (GVariant's constructors that
/// take a format string are C varargs, which Swift cannot call).
indirect enum BusValue: Sendable {
    case string(String)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case double(Double)
    /// A D-Bus object path (`o`), such as `/MenuBar`.
    case objectPath(String)
    case variant(BusValue)
    /// An array whose elements have the D-Bus type `elementType`, such as `s` or `(sssida{sv})`.
    case array(elementType: String, [BusValue])
    case tuple([BusValue])
    /// `a{sv}`.
    case dictionary([(String, BusValue)])

    /// An `as`.
    static func strings(_ strings: [String]) -> BusValue { .array(elementType: "s", strings.map { .string($0) }) }

    /// A new floating GVariant of the value.
    func make() -> OpaquePointer {
        switch self {
        case .string(let text):
            // D-Bus strings are UTF-8 without NUL; Swift's strings are UTF-8 already.
            return g_variant_new_string(text.replacingNUL())
        case .boolean(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .int32(let value): return g_variant_new_int32(value)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .double(let value): return g_variant_new_double(value)
        case .objectPath(let path): return g_variant_new_object_path(path)
        case .variant(let inner): return g_variant_new_variant(inner.make())
        case .array(let elementType, let elements):
            let type = g_variant_type_new(elementType)
            defer { g_variant_type_free(type) }
            var children: [OpaquePointer?] = elements.map { $0.make() }
            return g_variant_new_array(type, &children, gsize(children.count))
        case .tuple(let members):
            var children: [OpaquePointer?] = members.map { $0.make() }
            return g_variant_new_tuple(&children, gsize(children.count))
        case .dictionary(let entries):
            let type = g_variant_type_new("{sv}")
            defer { g_variant_type_free(type) }
            var children: [OpaquePointer?] = entries.map { key, value in
                g_variant_new_dict_entry(g_variant_new_string(key.replacingNUL()), g_variant_new_variant(value.make()))
            }
            return g_variant_new_array(type, &children, gsize(children.count))
        }
    }
}

extension String {
    /// The string with each NUL as U+FFFD, which GVariant's strings cannot hold.
    fileprivate func replacingNUL() -> String {
        contains("\0") ? replacing("\0", with: "\u{FFFD}") : self
    }
}

/// The arguments of a method call, read by position.
struct BusArguments {
    let parameters: OpaquePointer

    /// The string at `index`, or `nil` when it is not one.
    func string(_ index: Int) -> String? {
        guard let child = child(index, type: "s") else { return nil }
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The array of strings at `index`, or `nil` when it is not one.
    func strings(_ index: Int) -> [String]? {
        guard let child = child(index, type: "as") else { return nil }
        defer { g_variant_unref(child) }
        var strings: [String] = []
        let count = g_variant_n_children(child)
        strings.reserveCapacity(Int(count))
        for at in 0..<count {
            let element = g_variant_get_child_value(child, at)
            strings.append(String(cString: g_variant_get_string(element, nil)))
            g_variant_unref(element)
        }
        return strings
    }

    /// The boolean at `index`, or `nil` when it is not one.
    func boolean(_ index: Int) -> Bool? {
        guard let child = child(index, type: "b") else { return nil }
        defer { g_variant_unref(child) }
        return g_variant_get_boolean(child) != 0
    }

    /// The `int32` at `index`, or `nil` when it is not one.
    func int32(_ index: Int) -> Int32? {
        guard let child = child(index, type: "i") else { return nil }
        defer { g_variant_unref(child) }
        return g_variant_get_int32(child)
    }

    /// The array of `int32` at `index`, or `nil` when it is not one.
    func int32s(_ index: Int) -> [Int32]? {
        guard let child = child(index, type: "ai") else { return nil }
        defer { g_variant_unref(child) }
        return (0..<g_variant_n_children(child)).map { at in
            let element = g_variant_get_child_value(child, at)
            defer { g_variant_unref(element) }
            return g_variant_get_int32(element)
        }
    }

    /// The ids and event names of dbusmenu's `EventGroup` (`a(isvu)`) at `index`; `nil` when it is
    /// not one.
    func menuEvents(_ index: Int) -> [(id: Int32, event: String)]? {
        guard let child = child(index, type: "a(isvu)") else { return nil }
        defer { g_variant_unref(child) }
        return (0..<g_variant_n_children(child)).map { at in
            let element = g_variant_get_child_value(child, at)
            defer { g_variant_unref(element) }
            let event = BusArguments(parameters: element!)
            return (event.int32(0) ?? -1, event.string(1) ?? "")
        }
    }

    private func child(_ index: Int, type: String) -> OpaquePointer? {
        guard g_variant_is_container(parameters) != 0, gsize(index) < g_variant_n_children(parameters) else {
            return nil
        }
        let child = g_variant_get_child_value(parameters, gsize(index))
        guard let child else { return nil }
        guard String(cString: g_variant_get_type_string(child)) == type else {
            g_variant_unref(child)
            return nil
        }
        return child
    }
}
