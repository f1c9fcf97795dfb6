import Foundation
import HoorayConfig

extension ManifestReader {
    static let limitKeys = ["memory", "processes", "open_files", "cpu_seconds"]

    /// The `[limits]` table: each key a default unless set, each set value between
    /// ``PluginLimits/floor`` and ``PluginLimits/ceiling``.
    func readLimits() throws(PluginManifestError) -> PluginLimits {
        var limits = PluginLimits.standard
        guard let node = root["limits"] else { return limits }
        guard let table = node.table else {
            throw fail(
                at: node.location,
                "`limits` must be a table, such as [limits] with memory = \"512M\" on the next line; found \(node.kindDescription)"
            )
        }
        try checkKeys(of: table, known: Self.limitKeys, in: "[limits]")
        let floor = PluginLimits.floor
        let ceiling = PluginLimits.ceiling
        if let value = table["memory"] {
            let example = "memory = \"512M\""
            let bytes: Int?
            switch value.value {
            case .string(let text): bytes = PluginLimits.bytes(text)
            case .integer(let number): bytes = number
            default: bytes = nil
            }
            guard let bytes else {
                throw fail(
                    at: value.location,
                    "`memory` of [limits] must be a size such as \(example) (K, M or G), found \(value.kindDescription)"
                )
            }
            guard bytes <= ceiling.memoryBytes else {
                throw fail(
                    at: value.location,
                    "`memory` of [limits] asks for \(PluginLimits.size(bytes)), more than the ceiling of "
                        + "\(PluginLimits.size(ceiling.memoryBytes)) a plugin may have; ask for at most "
                        + "memory = \"\(PluginLimits.manifestSize(ceiling.memoryBytes))\"")
            }
            guard bytes >= floor.memoryBytes else {
                throw fail(
                    at: value.location,
                    "`memory` of [limits] is \(PluginLimits.size(bytes)), too little to start a program; "
                        + "ask for at least memory = \"\(PluginLimits.manifestSize(floor.memoryBytes))\"")
            }
            limits.memoryBytes = bytes
        }
        limits.processes = try count(
            "processes", in: table, floor: floor.processes, ceiling: ceiling.processes, unit: "processes",
            default: limits.processes)
        limits.openFiles = try count(
            "open_files", in: table, floor: floor.openFiles, ceiling: ceiling.openFiles, unit: "open files",
            default: limits.openFiles)
        limits.cpuSecondsPerCall = try count(
            "cpu_seconds", in: table, floor: floor.cpuSecondsPerCall, ceiling: ceiling.cpuSecondsPerCall,
            unit: "seconds of CPU per call", default: limits.cpuSecondsPerCall)
        return limits
    }

    private func count(
        _ key: String, in table: ConfigTable, floor: Int, ceiling: Int, unit: String, default value: Int
    ) throws(PluginManifestError) -> Int {
        guard let node = table[key] else { return value }
        guard case .integer(let number) = node.value else {
            throw fail(
                at: node.location,
                "`\(key)` of [limits] must be a whole number, such as \(key) = \(value); found \(node.kindDescription)")
        }
        guard number <= ceiling else {
            throw fail(
                at: node.location,
                "`\(key)` of [limits] asks for \(number) \(unit), more than the ceiling of \(ceiling) a plugin may "
                    + "have; ask for at most \(key) = \(ceiling)")
        }
        guard number >= floor else {
            throw fail(
                at: node.location,
                "`\(key)` of [limits] is \(number), too few to run a plugin; ask for at least \(key) = \(floor)")
        }
        return number
    }
}
