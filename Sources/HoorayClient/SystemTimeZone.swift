import FoundationEssentials

/// The system's time zone, read afresh each time it is asked for: the zone every client puts in a
/// command's `environment.time_zone`, and the one hoorayd keeps to.
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
    public var watchedDirectory: String {
        guard let slash = localtimePath.lastIndex(of: "/"), slash != localtimePath.startIndex else { return "/" }
        return String(localtimePath[..<slash])
    }

    /// The names in ``watchedDirectory`` that hold the zone.
    public var watchedNames: Set<String> {
        [String(localtimePath.split(separator: "/").last ?? ""), "timezone"]
    }

    /// Whether the zone is pinned by `TZ`, so that system changes do not apply.
    public var isPinnedByEnvironment: Bool { !(environment["TZ"] ?? "").isEmpty }

    /// The zone now in force.
    public func current() -> TimeZone {
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let zone = TimeZone(identifier: name) { return zone }
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: localtimePath),
            let name = Self.zoneName(inLinkTarget: target), let zone = TimeZone(identifier: name)
        {
            return zone
        }
        let timezoneFile = watchedDirectory + "/timezone"
        if let text = try? String(contentsOfFile: timezoneFile, encoding: .utf8),
            let zone = TimeZone(identifier: String(text.split(whereSeparator: \.isWhitespace).first ?? ""))
        {
            return zone
        }
        return TimeZone.current
    }

    /// What follows the first `zoneinfo/` of a `localtime` link's target, such as `Europe/Paris`.
    static func zoneName(inLinkTarget target: String) -> String? {
        let marker = "zoneinfo/"
        var rest = Substring(target)
        while !rest.isEmpty {
            if rest.hasPrefix(marker) { return String(rest.dropFirst(marker.count)) }
            rest = rest.dropFirst()
        }
        return nil
    }
}
