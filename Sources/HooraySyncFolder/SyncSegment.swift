import Crypto
import FoundationEssentials
import HooraySync

/// A segment: changes one computer made, sealed with the ``SyncKey``, in a file of its own that is
/// written once and never changed (`DEVICE/SEQUENCE.seg` in the sync folder).
///
/// The file is a line `HOORAY-SYNC`, a line of JSON that says which segment it is and how long
/// the sealed part is (`{"bytes":…,"device":"…","format":2,"sequence":7}`), then the changes as
/// JSON sealed with ChaCha20-Poly1305. The two lines are sealed in too (as additional data): a
/// segment moved under another device's name or number is refused as not this folder's.
public struct SyncSegment: Sendable, Equatable {
    /// The format this Hooray writes and reads; a segment of a later one is left for a later Hooray.
    /// 2: records are created (`create`), and snapshots take the place of older segments; a Hooray of
    /// format 1 must not read a folder holding them.
    public static let format = 2
    /// The first line.
    static let magic = Array("HOORAY-SYNC\n".utf8)
    /// The longest segment read, in bytes: one written by Hooray is far smaller.
    public static let maxBytes = 64 << 20

    /// The computer that wrote it.
    public var device: SyncDeviceID
    /// Its number among that computer's segments, from 1.
    public var sequence: Int
    /// The changes.
    public var changes: [SyncChange]

    /// Creates a segment.
    public init(device: SyncDeviceID, sequence: Int, changes: [SyncChange]) {
        self.device = device
        self.sequence = sequence
        self.changes = changes
    }

    /// The file's name in its device's folder: `0000000000000007.seg`.
    public static func fileName(sequence: Int) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits + ".seg"
    }

    /// The sequence a file's name says, or `nil` for a name no segment has.
    public static func sequence(ofFileName name: String) -> Int? {
        guard name.hasSuffix(".seg"), name.count == 20 else { return nil }
        let digits = name.dropLast(4)
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let value = Int(digits), value > 0 else {
            return nil
        }
        return value
    }

    struct Header: Codable, Equatable {
        var format: Int
        var device: SyncDeviceID
        var sequence: Int
        var bytes: Int
        /// `snapshot` for a snapshot; none for a segment.
        var kind: String?
    }

    // MARK: Writing

    /// The file's bytes, sealed with `key`.
    public func sealed(with key: SyncKey) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try Self.seal(
            Array(try encoder.encode(changes)), device: device, sequence: sequence, kind: nil, key: key)
    }

    /// A sealed file's bytes: the two lines, then `plain` sealed with `key` and the lines.
    static func seal(_ plain: [UInt8], device: SyncDeviceID, sequence: Int, kind: String?, key: SyncKey) throws
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The sealed part's length is known before sealing: a nonce, the text and a tag.
        let header = Header(
            format: format, device: device, sequence: sequence, bytes: 12 + plain.count + 16, kind: kind)
        let lines = magic + Array(try encoder.encode(header)) + [10]
        let box = try ChaChaPoly.seal(plain, using: key.key, authenticating: lines)
        return lines + Array(box.combined)
    }

    // MARK: Reading

    /// Why a segment was not read.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Shorter than it says: still being written or copied, or cut off; read again later.
        case cutShort
        /// Of a later format, written by a newer Hooray.
        case newerFormat(Int)
        /// Not sealed with this folder's key, or changed since: another folder's, or tampered with.
        case notThisFoldersKey
        /// Its lines say another device or number than its place in the folder.
        case misplaced
        /// Not a segment at all, or over ``maxBytes``.
        case notASegment(String)

        public var description: String {
            switch self {
            case .cutShort: "it is shorter than it says: still arriving, or cut off; it is read again later"
            case .newerFormat(let format):
                "it was written by a newer Hooray (format \(format)); update Hooray on this computer to read it"
            case .notThisFoldersKey:
                "it is not sealed with this folder's key (another folder's segment, or changed since); it was left alone"
            case .misplaced: "its lines name another computer or number than its place in the folder; it was left alone"
            case .notASegment(let why): "it is not a Hooray segment (\(why)); it was left alone"
            }
        }
    }

    /// Reads a segment's file.
    ///
    /// - Parameters:
    ///   - bytes: The file's bytes.
    ///   - key: The folder's key.
    ///   - device: The device whose folder it is in.
    ///   - sequence: The number its name says.
    /// - Throws: ``Problem``.
    public static func open(
        _ bytes: [UInt8], with key: SyncKey, device: SyncDeviceID, sequence: Int
    ) throws(Problem) -> SyncSegment {
        let plain = try unseal(bytes, with: key, device: device, sequence: sequence, kind: nil)
        guard let changes = try? JSONDecoder().decode([SyncChange].self, from: plain) else {
            throw .notASegment("its changes cannot be read")
        }
        // Every change in a device's segment is that device's.
        guard changes.allSatisfy({ $0.stamp.device == device }) else { throw .misplaced }
        return SyncSegment(device: device, sequence: sequence, changes: changes)
    }

    /// What a sealed file holds, once its lines are checked against its place and `kind`.
    static func unseal(
        _ bytes: [UInt8], with key: SyncKey, device: SyncDeviceID, sequence: Int, kind: String?
    ) throws(Problem) -> Data {
        guard bytes.count <= maxBytes else { throw .notASegment("over \(maxBytes >> 20) MB") }
        guard bytes.count >= magic.count else {
            // A file still being written may be empty or hold part of the first line.
            if Array(magic.prefix(bytes.count)) == bytes { throw .cutShort }
            throw .notASegment("it does not start with HOORAY-SYNC")
        }
        guard Array(bytes.prefix(magic.count)) == magic else {
            throw .notASegment("it does not start with HOORAY-SYNC")
        }
        guard let end = bytes[magic.count...].firstIndex(of: 10) else {
            if bytes.count < magic.count + 1024 { throw .cutShort }
            throw .notASegment("its second line does not end")
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(bytes[magic.count..<end]))
        } catch {
            if let format = (try? JSONDecoder().decode([String: Int].self, from: Data(bytes[magic.count..<end])))?[
                "format"],
                format > Self.format
            {
                throw .newerFormat(format)
            }
            throw .notASegment("its second line cannot be read")
        }
        guard header.format <= Self.format else { throw .newerFormat(header.format) }
        guard header.device == device, header.sequence == sequence, header.kind == kind else { throw .misplaced }
        let sealedPart = Array(bytes[(end + 1)...])
        guard sealedPart.count >= header.bytes else { throw .cutShort }
        guard sealedPart.count == header.bytes, header.bytes >= 28 else { throw .notThisFoldersKey }
        let plain: Data
        do {
            let box = try ChaChaPoly.SealedBox(combined: sealedPart)
            plain = try ChaChaPoly.open(box, using: key.key, authenticating: Array(bytes[...end]))
        } catch {
            throw .notThisFoldersKey
        }
        return plain
    }

    // MARK: Snapshots

    /// A snapshot's file name in its device's folder: `0000000000000064.snap`, numbered as the
    /// last segment of its computer's that it holds.
    public static func snapshotFileName(sequence: Int) -> String {
        String(fileName(sequence: sequence).dropLast(4)) + ".snap"
    }

    /// The sequence a snapshot file's name says, or `nil`.
    public static func sequence(ofSnapshotFileName name: String) -> Int? {
        guard name.hasSuffix(".snap") else { return nil }
        return sequence(ofFileName: String(name.dropLast(5)) + ".seg")
    }

    /// A snapshot's file bytes, sealed with `key`.
    public static func sealed(_ snapshot: SyncSnapshot, device: SyncDeviceID, sequence: Int, key: SyncKey) throws
        -> [UInt8]
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try seal(
            Array(try encoder.encode(snapshot)), device: device, sequence: sequence, kind: "snapshot", key: key)
    }

    /// Reads a snapshot's file.
    ///
    /// - Throws: ``Problem``, as for a segment.
    public static func openSnapshot(
        _ bytes: [UInt8], with key: SyncKey, device: SyncDeviceID, sequence: Int
    ) throws(Problem) -> SyncSnapshot {
        let plain = try unseal(bytes, with: key, device: device, sequence: sequence, kind: "snapshot")
        guard let snapshot = try? JSONDecoder().decode(SyncSnapshot.self, from: plain) else {
            throw .notASegment("its records cannot be read")
        }
        return snapshot
    }
}
