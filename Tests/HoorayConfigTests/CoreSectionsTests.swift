import Foundation
import HoorayConfig
import HoorayKit
import Testing

/// A mistake in one core section, read leniently, sends only that section back to its defaults.
@Suite struct CoreSectionsTests {
    @Test func aBrokenLogSectionKeepsTheIdentityStoreAndNamesOnlyLog() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [identity]
            store = "file"
            [delivery]
            icon = "party"
            [log]
            level = "loud"
            """)

        let lenient = try ConfigLoader(paths: directory.paths).loadLeniently(for: nil)

        #expect(lenient.loaded.core.identity.store == .file)
        #expect(lenient.loaded.core.delivery.icon == "party")
        #expect(lenient.loaded.core.log == CoreSettings.Log())
        #expect(lenient.ignored.map(\.part) == ["the [log] section"])
        #expect(lenient.ignored.first?.diagnostic.location?.line == 6)
    }

    @Test func twoBrokenSectionsFallBackAndTheOthersStay() throws {
        let directory = try TemporaryDirectory()
        try directory.write(
            "config/hooray/hooray.toml",
            """
            [scheduler]
            catch_up_within = "forever"
            [identity]
            store = "keyring"
            [delivery]
            retry_every = "often"
            icon = "party"
            """)

        let lenient = try ConfigLoader(paths: directory.paths).loadLeniently(for: nil)

        #expect(lenient.loaded.core.identity.store == .keyring)
        #expect(lenient.loaded.core.delivery == CoreSettings.Delivery())
        #expect(lenient.loaded.core.scheduler == CoreSettings.Scheduler())
        #expect(Set(lenient.ignored.map(\.part)) == ["the [scheduler] section", "the [delivery] section"])
    }
}
