import Foundation
import HoorayStorage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A data folder of its own under the temporary directory, with the identity file's path in it.
struct IdentityFolder: ~Copyable {
    let root: String
    let path: String

    init() {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hooray-id-\(UUID().uuidString)").path
        path = root + "/data/hooray/identity"
    }

    var folder: String { (path as NSString).deletingLastPathComponent }

    func store(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> IdentityStore {
        IdentityStore(path: path, now: { now })
    }

    /// Puts a file with these bytes and this mode where the identity belongs.
    func plant(_ bytes: [UInt8], mode: mode_t = 0o600) throws {
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        chmod(path, mode)
    }

    func contents() throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    func mode(of file: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
    }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

/// The canonical lowercase form of a random UUID, as sent in `x-user-id`.
func isHeaderValue(_ value: String) -> Bool {
    value.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil
}

func identityFile(userID: String = "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c", created: String = "2026-11-22T10:00:00Z")
    -> String
{
    "hooray-identity v1\nuser-id = \(userID)\ncreated = \(created)\n"
}

@Suite struct IdentityTests {
    @Test func firstUseMakesAPrivateFileInAPrivateFolder() throws {
        let folder = IdentityFolder()
        let identity = try folder.store().identity()
        #expect(try folder.mode(of: folder.path) == 0o600)
        #expect(try folder.mode(of: folder.folder) == 0o700)
        let text = String(decoding: try folder.contents(), as: UTF8.self)
        #expect(text.hasPrefix("hooray-identity v1\n"))
        #expect(text.contains("user-id = \(identity.headerValue)\n"))
        #expect(text.contains("created = 2027-01-15T08:00:00Z\n"))
        #expect(identity.createdAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func theSameIdentityComesBackFromEveryStoreUntilDeleted() throws {
        let folder = IdentityFolder()
        let first = try folder.store().identity()
        // Another process, later: a new store with a different clock must not make a new identity.
        let later = folder.store(now: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(try later.identity() == first)
        #expect(try later.existingIdentity() == first)
        #expect(try later.identity().headerValue == first.headerValue)
    }

    @Test func existingIdentityNeverMakesOne() throws {
        let folder = IdentityFolder()
        #expect(try folder.store().existingIdentity() == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func writingLeavesOnlyTheIdentityFileBehind() throws {
        let folder = IdentityFolder()
        _ = try folder.store().identity()
        #expect(try folder.files() == ["identity"])
    }

    @Test func aNarrowUmaskStillGivesTheOwnerAReadableFile() throws {
        let folder = IdentityFolder()
        let previous = umask(0o277)
        defer { umask(previous) }
        let identity = try folder.store().identity()
        #expect(try folder.mode(of: folder.path) == 0o600)
        #expect(try folder.store().identity() == identity)
    }

    @Test func deletingMakesTheNextIdentityANewOne() throws {
        let folder = IdentityFolder()
        let store = folder.store()
        let first = try store.identity()
        try store.delete()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        #expect(try store.existingIdentity() == nil)
        let second = try store.identity()
        #expect(second.userID != first.userID)
        #expect(try folder.store().identity() == second)
    }

    @Test func deletingWithoutAnIdentityIsFine() throws {
        let folder = IdentityFolder()
        try folder.store().delete()
        #expect(try folder.store().existingIdentity() == nil)
    }

    @Test func deletingRemovesADamagedFileAndLeftoverTemporaryFiles() throws {
        let folder = IdentityFolder()
        try folder.plant(Array("garbage\n".utf8))
        let leftover = folder.folder + "/.identity.0b7c.tmp"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data(identityFile().utf8)))
        try folder.store().delete()
        #expect(try folder.files() == [])
        #expect(isHeaderValue(try folder.store().identity().headerValue))
    }

    @Test func concurrentFirstUsesAgreeOnOneIdentity() async throws {
        let folder = IdentityFolder()
        let path = folder.path
        let identities = try await withThrowingTaskGroup(of: AnonymousIdentity.self) { group in
            for _ in 0..<32 {
                group.addTask { try IdentityStore(path: path).identity() }
            }
            return try await group.reduce(into: Set<AnonymousIdentity>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(try folder.store().identity() == identities.first)
        #expect(try folder.files() == ["identity"])
    }

    @Test func headerValuesAreLowercaseRandomUUIDs() throws {
        let folder = IdentityFolder()
        let store = folder.store()
        var seen = Set<String>()
        for _ in 0..<20 {
            let value = try store.identity().headerValue
            #expect(isHeaderValue(value), "\(value)")
            seen.insert(value)
            try store.delete()
        }
        #expect(seen.count == 20)
    }

    @Test func anUppercaseUserIDWrittenByHandIsSentInLowercase() throws {
        let folder = IdentityFolder()
        try folder.plant(Array(identityFile(userID: "3F2A8C1E-5B7D-4E9A-8C3B-0D1E2F3A4B5C").utf8))
        let identity = try folder.store().identity()
        #expect(identity.headerValue == "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c")
        #expect(identity.createdAt == Date(timeIntervalSince1970: 1_795_341_600))
    }

    @Test func aHandWrittenFileWithCommentsAndWindowsLineEndsIsRead() throws {
        let folder = IdentityFolder()
        let text =
            "hooray-identity v1\r\n# mine\r\n\r\n  created=2026-11-22T10:00:00Z\r\nuser-id = "
            + "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c\r\n"
        try folder.plant(Array(text.utf8))
        #expect(try folder.store().identity().headerValue == "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c")
    }

    @Test func onlyRandomUUIDsMakeAnIdentity() {
        #expect(AnonymousIdentity(userID: UUID(), createdAt: Date()) != nil)
        let zero = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!
        #expect(AnonymousIdentity(userID: zero, createdAt: Date()) == nil)
        let timeBased = UUID(uuidString: "c232ab00-9414-11ec-b3c8-9f6bdeced846")!
        #expect(AnonymousIdentity(userID: timeBased, createdAt: Date()) == nil)
    }

    static let damagedFiles: [(String, [UInt8], IdentityError.Problem)] = [
        ("empty", [], .truncated),
        ("JSON", Array(#"{"userId": "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c"}"#.utf8), .notAnIdentityFile),
        ("another program's file", Array("[identity]\nuser-id = x\n".utf8), .notAnIdentityFile),
        (
            "a newer version", Array(identityFile().replacingOccurrences(of: "v1", with: "v2").utf8),
            .unsupportedVersion("v2")
        ),
        ("cut short in the header", Array("hooray-iden".utf8), .truncated),
        ("cut short in the user id", Array(identityFile().utf8.prefix(40)), .truncated),
        ("cut short before the last newline", Array(identityFile().utf8.dropLast()), .truncated),
        (
            "without a created time",
            Array("hooray-identity v1\nuser-id = 3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c\n".utf8),
            .truncated
        ),
        ("binary junk", [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00, 0xFF, 0x10], .notText),
        ("invalid UTF-8", Array("hooray-identity v1\nuser-id = ".utf8) + [0xC3, 0x28, 0x0A], .notText),
        ("a NUL in the id", Array(identityFile().utf8).map { $0 == UInt8(ascii: "5") ? 0 : $0 }, .notText),
        (
            "too large", Array((identityFile() + String(repeating: "# padding\n", count: 500)).utf8),
            .tooLarge(size: identityFile().utf8.count + 5000)
        ),
        ("a malformed UUID", Array(identityFile(userID: "not-a-uuid").utf8), .malformedUserID),
        (
            "a UUID without dashes", Array(identityFile(userID: "3f2a8c1e5b7d4e9a8c3b0d1e2f3a4b5c").utf8),
            .malformedUserID
        ),
        ("an empty user id", Array(identityFile(userID: "").utf8), .malformedUserID),
        (
            "a UUID with a header in it",
            Array(identityFile(userID: "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c\r\nx-evil: 1").utf8),
            .malformedLine(3)
        ),
        (
            "the nil UUID", Array(identityFile(userID: "00000000-0000-0000-0000-000000000000").utf8),
            .notARandomUserID
        ),
        (
            "a time-based UUID", Array(identityFile(userID: "c232ab00-9414-11ec-b3c8-9f6bdeced846").utf8),
            .notARandomUserID
        ),
        (
            "a version 4 UUID of the wrong variant",
            Array(identityFile(userID: "3f2a8c1e-5b7d-4e9a-cc3b-0d1e2f3a4b5c").utf8),
            .notARandomUserID
        ),
        ("a malformed created time", Array(identityFile(created: "yesterday").utf8), .malformedCreated),
        ("an unknown key", Array((identityFile() + "email = me@example.com\n").utf8), .unknownKey("email", line: 4)),
        (
            "a key given twice", Array((identityFile() + "user-id = 3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5d\n").utf8),
            .duplicateKey("user-id", line: 4)
        ),
        ("a line without =", Array("hooray-identity v1\nuser-id\n".utf8), .malformedLine(2)),
    ]

    @Test(arguments: damagedFiles)
    func aDamagedFileIsReportedAndLeftAsItIs(name: String, bytes: [UInt8], problem: IdentityError.Problem) throws {
        let folder = IdentityFolder()
        try folder.plant(bytes)
        let store = folder.store()
        let error = #expect(throws: IdentityError.self, "\(name)") { try store.identity() }
        #expect(error?.problem == problem, "\(name)")
        #expect(error?.path == folder.path)
        #expect(error?.isDamaged == true)
        let description = error?.description ?? ""
        #expect(description.contains(folder.path))
        #expect(description.contains("`mv \(folder.path) \(folder.path).damaged`"), "\(description)")
        #expect(description.contains("your data stays"))
        // The id in a damaged file is never echoed, even partly.
        #expect(!description.contains("3f2a8c1e"))
        #expect(throws: IdentityError.self) { try store.existingIdentity() }
        // Nothing replaced, nothing repaired, nothing left beside it.
        #expect(try folder.contents() == bytes)
        #expect(try folder.files() == ["identity"])
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o666, 0o602])
    func aFileOthersCanReadOrWriteIsRefusedWithTheChmodFix(mode: Int) throws {
        let folder = IdentityFolder()
        let bytes = Array(identityFile().utf8)
        try folder.plant(bytes, mode: mode_t(mode))
        let error = #expect(throws: IdentityError.self) { try folder.store().identity() }
        #expect(error?.problem == .insecurePermissions(mode: mode_t(0o100000 | mode)))
        #expect(error?.description.contains("chmod 600 \(folder.path)") == true)
        #expect(error?.description.contains(String(mode, radix: 8)) == true)
        #expect(try folder.mode(of: folder.path) == mode)
        #expect(try folder.contents() == bytes)
    }

    @Test func aReadOnlyPrivateFileIsAccepted() throws {
        let folder = IdentityFolder()
        try folder.plant(Array(identityFile().utf8), mode: 0o400)
        #expect(try folder.store().identity().headerValue == "3f2a8c1e-5b7d-4e9a-8c3b-0d1e2f3a4b5c")
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aFileOwnedByAnotherUserIsRefused() throws {
        let folder = IdentityFolder()
        let bytes = Array(identityFile().utf8)
        try folder.plant(bytes)
        #expect(chown(folder.path, 65534, 65534) == 0)
        let error = #expect(throws: IdentityError.self) { try folder.store().identity() }
        #expect(error?.problem == .wrongOwner(uid: 65534))
        #expect(error?.description.contains("another user (uid 65534)") == true)
        #expect(error?.description.contains("chown") == true)
        #expect(try folder.contents() == bytes)
    }

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let folder = IdentityFolder()
        try folder.plant(Array(identityFile().utf8))
        let target = folder.folder + "/elsewhere"
        try FileManager.default.moveItem(atPath: folder.path, toPath: target)
        try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: target)
        let error = #expect(throws: IdentityError.self) { try folder.store().identity() }
        #expect(error?.problem == .notARegularFile)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.path) == target)
    }

    @Test func aFolderWhereTheFileBelongsIsRefused() throws {
        let folder = IdentityFolder()
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let error = #expect(throws: IdentityError.self) { try folder.store().identity() }
        #expect(error?.problem == .notARegularFile)
    }

    @Test func aDataFolderThatCannotBeMadeIsReported() throws {
        let folder = IdentityFolder()
        // A plain file where the data folder should be.
        try FileManager.default.createDirectory(
            atPath: (folder.folder as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: folder.folder, contents: Data()))
        let error = #expect(throws: IdentityError.self) { try folder.store().identity() }
        guard case .folderUnusable = error?.problem else {
            Issue.record("expected folderUnusable, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("ls -ld \(folder.folder)") == true)
    }

    @Test func suggestedCommandsQuotePathsWithSpaces() {
        let error = IdentityError(path: "/home/a b/it's/identity", problem: .truncated)
        #expect(error.description.contains(#"`mv '/home/a b/it'\''s/identity' '/home/a b/it'\''s/identity.damaged'`"#))
    }
}
