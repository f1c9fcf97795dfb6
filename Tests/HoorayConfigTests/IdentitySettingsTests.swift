import HoorayConfig
import HoorayKit
import Testing

/// `[identity] store`: where the anonymous identity is kept.
@Suite struct IdentitySettingsTests {
    @Test func theKeyringIsUsedWhenThereIsOneByDefault() throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("", in: directory)

        let (settings, _) = try CoreSettings.decode(from: root)

        #expect(settings.identity.store == .auto)
    }

    @Test(arguments: CoreSettings.Identity.Store.allCases)
    func theStoreIsReadFromItsSection(store: CoreSettings.Identity.Store) throws {
        let directory = try TemporaryDirectory()
        let (root, _) = try parseFile("[identity]\nstore = \"\(store.rawValue)\"\n", in: directory)

        let (settings, warnings) = try CoreSettings.decode(from: root)

        #expect(settings.identity.store == store)
        #expect(warnings.isEmpty)
    }

    @Test func aStoreThatIsNoneOfTheThreeIsAnErrorListingThem() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("config/hooray/hooray.toml", "[identity]\nstore = \"keychain\"\n")

        let report = ConfigLoader(paths: directory.paths).check()

        let found = try #require(report.diagnostics.first)
        #expect(report.hasErrors)
        #expect(found.location == Location(file: file, line: 2, column: 9))
        #expect(found.message == "identity.store: \"keychain\" is not one of \"auto\", \"keyring\" or \"file\"")
    }
}
