import FoundationEssentials
import HoorayClient

/// The changes that turn one version of a record into another: what a device writes when the user
/// changes a record, one change per field that changed and one per element added to or taken out of
/// a set field.
public enum SyncDiff {
    /// The changes from `old` to `new`, stamped by `clock`.
    ///
    /// - Parameters:
    ///   - old: The record before; `nil` when it is new.
    ///   - new: The record after; `nil` when it is deleted.
    ///   - record: Which record it is.
    ///   - schema: Which of its fields are sets.
    ///   - clock: The device's clock; one stamp is taken per change.
    ///   - wall: The device's clock's time, in milliseconds since 1970.
    /// - Returns: The changes, in the order they were stamped; none when nothing changed.
    public static func changes(
        from old: JSONValue?, to new: JSONValue?, record: SyncRecordKey, schema: SyncSchema = .builtIn,
        clock: inout HybridClock, wall: Int64
    ) -> [SyncChange] {
        var operations: [SyncOperation] = old == nil ? [.create] : []
        guard let new else {
            return old == nil ? [] : [SyncChange(stamp: clock.stamp(wall: wall), record: record, operation: .delete)]
        }
        let before = members(old)
        let after = members(new)
        let shapes = schema.setFields(of: record)
        for field in Set(before.keys).union(after.keys).sorted() {
            let was = before[field]
            let now = after[field]
            guard was != now else { continue }
            if let shape = shapes[field], let added = elements(of: now, shape: shape),
                let removed = elements(of: was, shape: shape)
            {
                // That the field is there at all travels too: an empty day set is not no day set.
                if was == nil { operations.append(.set(field: field, value: SyncSchema.value(of: [], shape: shape))) }
                let had = Set(removed.map(\.canonicalText))
                let has = Set(added.map(\.canonicalText))
                operations += removed.filter { !has.contains($0.canonicalText) }.map {
                    .remove(field: field, element: $0)
                }
                operations += added.filter { !had.contains($0.canonicalText) }.map { .add(field: field, element: $0) }
            } else {
                operations.append(.set(field: field, value: now))
            }
        }
        return operations.map { SyncChange(stamp: clock.stamp(wall: wall), record: record, operation: $0) }
    }

    /// A set field's elements; none when it is not there, `nil` when it is not of its shape.
    private static func elements(of value: JSONValue?, shape: SyncSchema.SetShape) -> [JSONValue]? {
        guard let value else { return [] }
        return SyncSchema.elements(of: value, shape: shape)
    }

    /// An object's members; a value that is no object is one member, `""`.
    private static func members(_ value: JSONValue?) -> [String: JSONValue] {
        switch value {
        case .none: [:]
        case .object(let members): members
        case .some(let other): ["": other]
        }
    }
}
