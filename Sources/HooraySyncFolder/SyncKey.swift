import Crypto
import FoundationEssentials
import HooraySync

/// The key only the user's computers hold: every segment in the sync folder is sealed with it, so a
/// folder on a shared or cloud drive shows nothing but sizes and times.
///
/// The first computer makes it at random and shows it as a pairing phrase; each other computer is
/// given the phrase (`hooray sync setup`). The phrase is the key itself in Crockford's base 32
/// (digits and letters without I, L, O and U), with a check of two more characters that catches a
/// typo, in groups of six: `7F3K9Q-…`.
public struct SyncKey: Sendable, Equatable {
    let key: SymmetricKey

    /// The key's 32 bytes.
    public var bytes: [UInt8] { key.withUnsafeBytes { Array($0) } }

    /// A new random key.
    public static func random() -> SyncKey { SyncKey(key: SymmetricKey(size: .bits256)) }

    /// The key of 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        key = SymmetricKey(data: bytes)
    }

    init(key: SymmetricKey) { self.key = key }

    public static func == (lhs: SyncKey, rhs: SyncKey) -> Bool { lhs.bytes == rhs.bytes }

    // MARK: The pairing phrase

    /// Crockford's base 32 alphabet.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// The pairing phrase: 54 characters in nine groups of six.
    public var phrase: String {
        let check = Array(SHA256.hash(data: bytes))
        // 256 bits of key and 14 bits of check: 270 bits, 54 characters.
        var bits = bytes.flatMap { byte in (0..<8).reversed().map { (byte >> $0) & 1 } }
        bits += (0..<14).map { index in (check[index / 8] >> (7 - index % 8)) & 1 }
        let characters = stride(from: 0, to: bits.count, by: 5).map { start in
            Self.alphabet[bits[start..<start + 5].reduce(0) { Int($0) << 1 | Int($1) }]
        }
        return stride(from: 0, to: characters.count, by: 6).map { String(characters[$0..<$0 + 6]) }
            .joined(separator: "-")
    }

    /// Why a phrase typed is not a key.
    public enum PhraseProblem: Error, Equatable, CustomStringConvertible {
        /// Too short or too long, by this many characters (negative: short).
        case length(Int)
        /// A character that is in no phrase.
        case character(Character)
        /// Every character is one a phrase has, but they do not add up: a typo.
        case typo

        public var description: String {
            switch self {
            case .length(let off) where off < 0:
                "the phrase is \(-off) character\(off == -1 ? "" : "s") short; it has 54 letters and digits"
            case .length(let off):
                "the phrase is \(off) character\(off == 1 ? "" : "s") too long; it has 54 letters and digits"
            case .character(let character):
                "“\(character)” is in no pairing phrase; they have digits and the letters A–Z but U"
            case .typo: "the phrase has a typo: check it against the one the other computer shows"
            }
        }
    }

    /// The key a pairing phrase holds. Case, spaces and dashes do not matter, and I and L are read as
    /// 1, O as 0.
    ///
    /// - Throws: ``PhraseProblem`` saying what is wrong with it.
    public init(phrase: String) throws(PhraseProblem) {
        var values: [UInt8] = []
        for character in phrase.uppercased() where character != "-" && !character.isWhitespace {
            let read: Character =
                switch character {
                case "I", "L": "1"
                case "O": "0"
                default: character
                }
            guard let value = Self.alphabet.firstIndex(of: read) else { throw .character(character) }
            values.append(UInt8(value))
        }
        guard values.count == 54 else { throw .length(values.count - 54) }
        let bits = values.flatMap { value in (0..<5).reversed().map { (value >> $0) & 1 } }
        let bytes = stride(from: 0, to: 256, by: 8).map { start in bits[start..<start + 8].reduce(0) { $0 << 1 | $1 } }
        let key = SyncKey(key: SymmetricKey(data: bytes))
        guard key.phrase == Self.normalized(values) else { throw .typo }
        self = key
    }

    /// The phrase of the values typed, grouped as ``phrase`` writes it.
    private static func normalized(_ values: [UInt8]) -> String {
        let characters = values.map { alphabet[Int($0)] }
        return stride(from: 0, to: characters.count, by: 6).map { String(characters[$0..<$0 + 6]) }
            .joined(separator: "-")
    }

    // MARK: Checks

    /// A check of the key, kept in the sync folder: a computer given a phrase learns at once whether
    /// it is this folder's, without a segment to try.
    public var check: String {
        HMAC<SHA256>.authenticationCode(for: Array("hooray sync folder check 1".utf8), using: key)
            .map { byte in String(byte >> 4, radix: 16) + String(byte & 15, radix: 16) }.joined()
    }
}
