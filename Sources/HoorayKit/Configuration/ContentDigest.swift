/// A fast 128-bit digest of bytes and texts, eight bytes a step, that tells contents apart.
///
/// It is not cryptographic and protects against no attacker: it digests the user's own files and
/// records, to know that they did not change (``ConfigurationSource/digest``). Two lanes with
/// different multipliers make an accidental collision out of reach.
public struct ContentDigest: Sendable, Hashable {
    private var low: UInt64 = 0x243f_6a88_85a3_08d3
    private var high: UInt64 = 0x1319_8a2e_0370_7344

    /// Starts a digest.
    public init() {}

    @inline(__always)
    private mutating func add(word: UInt64) {
        low = (low ^ word) &* 0x9e37_79b9_7f4a_7c15
        low ^= low >> 29
        high = (high ^ word ^ (high >> 31)) &* 0xff51_afd7_ed55_8ccd
        high = high &+ (high << 7 | high >> 57)
    }

    /// Adds bytes, and their count, so that `"ab" + "c"` and `"a" + "bc"` differ.
    public mutating func add(bytes: UnsafeRawBufferPointer) {
        DigestWords.forEach(in: bytes) { add(word: $0) }
    }

    /// Adds a text, as its UTF-8 bytes and their count.
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a text that may be absent; absent and empty differ.
    public mutating func add(_ text: String?) {
        if let text {
            add(word: 1)
            add(text)
        } else {
            add(word: 0)
        }
    }

    /// Adds a whole number.
    public mutating func add(_ number: Int) {
        add(word: UInt64(bitPattern: Int64(number)))
    }

    /// The digest as 32 hexadecimal digits.
    public var value: String {
        let (low, high) = finished
        return String(unsafeUninitializedCapacity: 32) { buffer in
            for index in 0..<32 {
                let word = index < 16 ? high : low
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (index % 16))) & 0xF
                buffer[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
            }
            return 32
        }
    }

    /// Both lanes, each mixed with the other, so that every input bit reaches every output bit.
    private var finished: (UInt64, UInt64) {
        var low = self.low ^ (high >> 33)
        low = (low ^ (low >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        var high = self.high ^ (self.low >> 29)
        high = (high ^ (high >> 31)) &* 0x94d0_49bb_1331_11eb
        return (low ^ (low >> 33), high ^ (high >> 31))
    }
}

/// Bytes as a digest takes them: their count, then eight bytes a word (little-endian), the last
/// word filled with zeros.
enum DigestWords {
    @inline(__always)
    static func forEach(in bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        body(UInt64(bytes.count))
        var index = 0
        while index + 8 <= bytes.count {
            body(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        if index < bytes.count {
            var last: UInt64 = 0
            for (shift, byte) in bytes[index...].enumerated() { last |= UInt64(byte) << UInt64(8 * shift) }
            body(last)
        }
    }
}
