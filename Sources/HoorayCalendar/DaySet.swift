import Foundation

/// A set of days kept as a bitmap: one bit a day from the earliest.
///
/// A year of a habit's history takes 48 bytes instead of the ~11 KB a `Set<LocalDate>` needs, so
/// 10,000 habits fit in a few hundred kilobytes, and reading one from storage is a copy of bytes.
///
/// It is encoded as its first day (days since 1970-01-01) and the bitmap in base64, one bit a day
/// from it, least significant bit first in each byte: `{"from": 20393, "bits": "EQ=="}`.
public struct DaySet: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible, Codable {
    /// The day of bit 0, as days since 1970-01-01; the earliest day when not empty.
    private var first: Int = 0
    /// The bits, 64 days a word, least significant first; no trailing zero words.
    private var words: [UInt64] = []

    /// An empty set.
    public init() {}

    /// A set of these days.
    public init<Days: Sequence>(_ days: Days) where Days.Element == LocalDate {
        let numbers = days.map(\.daysSinceEpoch)
        guard let low = numbers.min(), let high = numbers.max() else { return }
        first = low
        words = [UInt64](repeating: 0, count: (high - low) / 64 + 1)
        for number in numbers { words[(number - low) / 64] |= 1 << UInt64((number - low) % 64) }
    }

    /// A set of the days listed.
    public init(arrayLiteral days: LocalDate...) {
        self.init(days)
    }

    /// A set read from its stored form: the first day and the bitmap's bytes, least significant
    /// bit first.
    init(first: Int, bytes: Data) {
        var words = [UInt64](repeating: 0, count: (bytes.count + 7) / 8)
        for (index, byte) in bytes.enumerated() { words[index / 8] |= UInt64(byte) << UInt64(index % 8 * 8) }
        self.first = first
        self.words = words
        normalize()
    }

    /// The stored form: the first day and the bitmap's bytes.
    var storedForm: (first: Int, bytes: Data) {
        var bytes = Data(capacity: words.count * 8)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        while bytes.last == 0 { bytes.removeLast() }
        return (first, bytes)
    }

    /// Whether `day` is in the set.
    public func contains(_ day: LocalDate) -> Bool {
        let offset = day.daysSinceEpoch - first
        guard offset >= 0, offset / 64 < words.count else { return false }
        return words[offset / 64] & (1 << UInt64(offset % 64)) != 0
    }

    /// Adds a day.
    ///
    /// - Returns: Whether it was new.
    @discardableResult
    public mutating func insert(_ day: LocalDate) -> Bool {
        guard !contains(day) else { return false }
        let number = day.daysSinceEpoch
        if words.isEmpty {
            first = number
            words = [1]
            return true
        }
        if number < first {
            self = DaySet(Array(self) + [day])
            return true
        }
        let offset = number - first
        if offset / 64 >= words.count { words += [UInt64](repeating: 0, count: offset / 64 - words.count + 1) }
        words[offset / 64] |= 1 << UInt64(offset % 64)
        return true
    }

    /// Removes a day.
    ///
    /// - Returns: The day, when it was in the set.
    @discardableResult
    public mutating func remove(_ day: LocalDate) -> LocalDate? {
        guard contains(day) else { return nil }
        let offset = day.daysSinceEpoch - first
        words[offset / 64] &= ~(1 << UInt64(offset % 64))
        normalize()
        return day
    }

    /// How many days are in the set.
    public var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether the set is empty.
    public var isEmpty: Bool { words.isEmpty }

    /// The days, earliest first.
    public func makeIterator() -> some IteratorProtocol<LocalDate> {
        let first = first
        return words.enumerated().lazy.flatMap { index, word in
            (0..<64).lazy.filter { word & (1 << UInt64($0)) != 0 }.map {
                LocalDate(daysSinceEpoch: first + index * 64 + $0)
            }
        }.makeIterator()
    }

    /// The days as `[2026-11-01, 2026-11-03]`.
    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }

    private enum CodingKeys: String, CodingKey {
        case from, bits
    }

    /// Decodes the stored form; bits that are not base64 read as no days, so that the rest of the
    /// record they belong to still reads.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let first = try container.decode(Int.self, forKey: .from)
        let text = try container.decode(String.self, forKey: .bits)
        self.init(first: first, bytes: Data(base64Encoded: text) ?? Data())
    }

    /// Encodes the stored form: the first day and the bitmap in base64.
    public func encode(to encoder: any Encoder) throws {
        let stored = storedForm
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(stored.first, forKey: .from)
        try container.encode(stored.bytes.base64EncodedString(), forKey: .bits)
    }

    /// Keeps one form per set, so equal sets compare equal: the earliest day on bit 0, no empty
    /// words at the end.
    private mutating func normalize() {
        while words.last == 0 { words.removeLast() }
        guard let lowWord = words.firstIndex(where: { $0 != 0 }) else {
            first = 0
            words = []
            return
        }
        let shift = lowWord * 64 + words[lowWord].trailingZeroBitCount
        guard shift > 0 else { return }
        self = DaySet(Array(self))
    }
}
