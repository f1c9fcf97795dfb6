/// Makes each string of a document once: the keys of every element of a list of tables, and the
/// values they share, are one `String` each rather than one for each time they are written.
///
/// A string is looked up by its bytes in a table of the strings made last, one for each hash; a
/// string that is not there is made and takes that place. Strings longer than ``longest`` bytes are
/// made each time. The table lives as long as one reading of one document.
struct StringInterner {
    static let longest = 64

    private struct Slot {
        /// Where the bytes of the string are in the text; a length of -1 for an empty slot.
        var start = 0
        var length = -1
        /// The first and the last eight bytes (see ``StringInterner/ends(_:_:_:count:)``).
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var string = ""
    }

    /// Keeps the places; they are read through ``base``, which takes no reference count.
    private final class Slots {
        let base: UnsafeMutablePointer<Slot>
        let count: Int

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
            base.initialize(repeating: Slot(), count: count)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    private var slots: Slots?
    private var base: UnsafeMutablePointer<Slot>?
    private let size: Int
    private let shift: UInt64

    /// A table for a text of `textSize` bytes: 16 places for a small file, up to 4,096 for a large one.
    init(textSize: Int) {
        var size = 16
        while size < 4096 && size * 256 < textSize { size *= 2 }
        self.size = size
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    /// The string of the UTF-8 bytes from `start` to `end`.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> String {
        let length = end - start
        guard length <= Self.longest, length > 0, let text = bytes.baseAddress else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        let places: UnsafeMutablePointer<Slot>
        if let made = base {
            places = made
        } else {
            let slots = Slots(count: size)
            self.slots = slots
            places = slots.base
            base = places
        }
        let (head, tail) = Self.ends(text, start, end, count: bytes.count)
        let hash = ((head &* 0x9E37_79B9_7F4A_7C15) ^ tail ^ UInt64(length)) &* 0xC2B2_AE3D_27D4_EB4F
        let slot = places + Int(truncatingIfNeeded: hash >> shift)
        if slot.pointee.length == length && slot.pointee.head == head && slot.pointee.tail == tail
            && (length <= 16 || Self.middlesEqual(text, start, slot.pointee.start, length))
        {
            return slot.pointee.string
        }
        let string = String(decoding: UnsafeBufferPointer(start: text + start, count: length), as: UTF8.self)
        slot.pointee = Slot(start: start, length: length, head: head, tail: tail, string: string)
        return string
    }

    /// The first eight bytes and the last eight of the bytes from `start` to `end` (overlapping when
    /// there are fewer than 16; with fewer than eight, the bytes and zeros, and no tail).
    private static func ends(
        _ text: UnsafePointer<UInt8>, _ start: Int, _ end: Int, count: Int
    ) -> (UInt64, UInt64) {
        let length = end - start
        if length >= 8 { return (load(text, start), load(text, end - 8)) }
        if start + 8 <= count { return (load(text, start) & ((1 << UInt64(8 * length)) - 1), 0) }
        var word: UInt64 = 0
        for index in 0..<length { word |= UInt64(text[start + index]) << UInt64(8 * index) }
        return (word, 0)
    }

    /// Whether the bytes between the first eight and the last eight are the same at `one` and `other`.
    private static func middlesEqual(_ text: UnsafePointer<UInt8>, _ one: Int, _ other: Int, _ length: Int) -> Bool {
        var offset = 8
        while offset < length - 8 {
            guard load(text, one + offset) == load(text, other + offset) else { return false }
            offset += 8
        }
        return true
    }

    private static func load(_ text: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(text + offset).loadUnaligned(as: UInt64.self))
    }
}
