import FoundationEssentials

/// When a change was made, on a hybrid logical clock: the wall clock in milliseconds where it runs
/// ahead, a counter where it does not, and the device as the last word. Every change ever made has a
/// stamp of its own, and any two stamps are ordered, the same way on every device.
///
/// Ordered by ``wall``, then ``counter``, then ``device``: a change made after another was seen is
/// always later than it, whatever the two devices' clocks say (docs/sync.md, "Time").
public struct SyncStamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01 UTC, as the device's clock said or as it was carried forward.
    public var wall: Int64
    /// Tells apart changes within one millisecond, and those made while the clock lags behind one seen.
    public var counter: UInt32
    /// The device that made the change.
    public var device: SyncDeviceID

    /// Creates a stamp.
    public init(wall: Int64, counter: UInt32, device: SyncDeviceID) {
        self.wall = wall
        self.counter = counter
        self.device = device
    }

    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        (lhs.wall, lhs.counter, lhs.device.rawValue) < (rhs.wall, rhs.counter, rhs.device.rawValue)
    }

    /// `1764513600000.3@a1b2c3…`.
    public var description: String { "\(wall).\(counter)@\(device.rawValue)" }
}

/// A device's id in the sync folder: random, made once per device, 32 lowercase hex digits.
public struct SyncDeviceID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The id's text.
    public let rawValue: String

    /// The id of `text`, or `nil` when it is not 32 lowercase hex digits (a folder someone made by hand).
    public init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            return nil
        }
        rawValue = text
    }

    /// A new random id.
    public static func random() -> SyncDeviceID {
        var generator = SystemRandomNumberGenerator()
        let text = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        return SyncDeviceID(text)!
    }

    public static func < (lhs: SyncDeviceID, rhs: SyncDeviceID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = SyncDeviceID(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not a device id"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A device's hybrid logical clock: makes the stamps of its changes, and learns from the stamps of
/// other devices' changes so that its next change is later than all it has seen.
public struct HybridClock: Sendable, Equatable {
    /// The device.
    public let device: SyncDeviceID
    /// The latest stamp made or seen.
    public private(set) var latest: SyncStamp

    /// A clock for `device` that has seen nothing.
    public init(device: SyncDeviceID) {
        self.device = device
        latest = SyncStamp(wall: 0, counter: 0, device: device)
    }

    /// A clock for `device` that goes on from `latest` (kept from an earlier run).
    public init(device: SyncDeviceID, after latest: SyncStamp) {
        self.device = device
        self.latest = latest
    }

    /// The stamp of a change made now.
    ///
    /// - Parameter wall: The device's clock, in milliseconds since 1970.
    public mutating func stamp(wall: Int64) -> SyncStamp {
        if wall > latest.wall {
            latest = SyncStamp(wall: wall, counter: 0, device: device)
        } else if latest.counter == .max {
            // Four billion changes in one millisecond: the next one is a millisecond later.
            latest = SyncStamp(wall: latest.wall + 1, counter: 0, device: device)
        } else {
            latest = SyncStamp(wall: latest.wall, counter: latest.counter + 1, device: device)
        }
        return latest
    }

    /// Learns of a change another device made, so that changes made here after it are later.
    public mutating func observe(_ seen: SyncStamp) {
        if seen.wall > latest.wall || (seen.wall == latest.wall && seen.counter > latest.counter) {
            latest = SyncStamp(wall: seen.wall, counter: seen.counter, device: device)
        }
    }
}
