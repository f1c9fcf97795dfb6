import HoorayKit

extension ConfigNode {
    /// This node with a later layer laid over it.
    ///
    /// Tables merge key by key, recursively. Arrays of tables (`[[plugins.reminders.reminder]]`)
    /// are concatenated, this layer's elements first, each keeping the location of the file it
    /// comes from. Anything else in `overlay`, including a plain array or an empty array, replaces
    /// what is here, so `days = []` in a later file clears an earlier list.
    ///
    /// - Parameter overlay: The later layer.
    /// - Returns: The merged node.
    public func merging(_ overlay: ConfigNode) -> ConfigNode {
        switch (value, overlay.value) {
        case (.table(let base), .table(let top)):
            var merged = base
            for (key, node) in top {
                let combined = base[key].map { $0.merging(node) } ?? node
                merged.set(combined, forKey: key, keyLocation: top.keyLocation(of: key) ?? base.keyLocation(of: key))
            }
            return ConfigNode(.table(merged), location: overlay.location ?? location)
        case (.array(let base), .array(let top)) where isArrayOfTables && overlay.isArrayOfTables:
            return ConfigNode(.array(base + top), location: location ?? overlay.location)
        default:
            return overlay
        }
    }
}
