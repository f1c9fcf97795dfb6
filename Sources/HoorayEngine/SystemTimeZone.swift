import Foundation

/// The system's time zone, read afresh each time it is asked for.
///
/// Foundation caches `TimeZone.current` for the life of the process, but a laptop changes zones
/// while `hoorayd` runs (`timedatectl set-timezone`, or automatic time-zone updates). This reads
/// the zone the way the C library does: `TZ` when it is set, else the zone that `/etc/localtime`
/// links to, else `/etc/timezone`.
public struct SystemTimeZone: Sendable {
    /// The process environment (`TZ`).
    public let environment: [String: String]
    /// The `localtime` link; `/etc/localtime` unless `HOORAY_LOCALTIME` names another (for tests).
    public let localtimePath: String

    /// Creates a reader.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
        self.localtimePath =
            environment["HOORAY_LOCALTIME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/etc/localtime"
    }

    /// The folder whose changes may change the zone.
    public var watchedDirectory: String { (localtimePath as NSString).deletingLastPathComponent }

    /// The names in ``watchedDirectory`` that hold the zone.
    public var watchedNames: Set<String> { [(localtimePath as NSString).lastPathComponent, "timezone"] }

    /// Whether the zone is pinned by `TZ`, so that system changes do not apply.
    public var isPinnedByEnvironment: Bool { !(environment["TZ"] ?? "").isEmpty }

    /// The zone now in force.
    public func current() -> TimeZone {
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let zone = TimeZone(identifier: name) { return zone }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtimePath),
            let marker = target.range(of: "zoneinfo/"),
            let zone = TimeZone(identifier: String(target[marker.upperBound...]))
        {
            return zone
        }
        let timezoneFile = watchedDirectory + "/timezone"
        if let text = try? String(contentsOfFile: timezoneFile, encoding: .utf8),
            let zone = TimeZone(identifier: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return zone
        }
        return TimeZone.current
    }
}
