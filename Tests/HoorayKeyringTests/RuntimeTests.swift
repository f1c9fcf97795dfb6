import CGio
import Foundation
import HooraySystemTesting
import Synchronization
import Testing

@testable import HoorayKeyring

/// The two guarantees under the public API: no prompt unless unlocking, and no wait past the timeout.
@Suite struct KeyringRuntimeTests {
    @Test func libsecretPromptsAreRefusedUnlessUnlockingWasAsked() async throws {
        try await withKeyringDaemon { fixture in
            try await fixture.daemon.lock()
            let address = fixture.bus.address

            // Unlocking makes gnome-keyring hand out a prompt; a session that was not allowed to
            // prompt refuses it inside libsecret, before anything is shown.
            let result = KeyringCall.run(timeout: .seconds(5)) { cancellable in
                Result { () throws(KeyringFailure) in
                    let session = try SecretServiceSession(
                        address: address, openSession: false, cancellable: cancellable)
                    guard let collection = try session.defaultCollection() else { return false }
                    defer { g_object_unref(UnsafeMutableRawPointer(collection)) }
                    return try session.unlock(collection)
                }
            }

            #expect(throws: KeyringFailure.locked(service: "GNOME Keyring")) { try result.get() }
            #expect(try await fixture.daemon.isLocked())
        }
    }

    @Test func aCallThatOverrunsItsTimeoutReturnsAtTheDeadline() {
        let finished = Atomic<Bool>(false)

        let result = KeyringCall.run(timeout: .milliseconds(100)) { _ -> Result<Int, KeyringFailure> in
            Thread.sleep(forTimeInterval: 5)
            finished.store(true, ordering: .sequentiallyConsistent)
            return .success(1)
        }

        #expect(throws: KeyringFailure.timedOut(.milliseconds(100))) { try result.get() }
        // Returned at the deadline, while the work was still going.
        let workFinished = finished.load(ordering: .sequentiallyConsistent)
        #expect(!workFinished)
    }

    @Test(arguments: [(Duration.seconds(5), "5 s"), (.milliseconds(1500), "1.5 s"), (.milliseconds(250), "0.25 s")])
    func timeoutsAreSpokenInSeconds(timeout: Duration, spoken: String) {
        #expect(KeyringFailure.timedOut(timeout).reason == "the keyring did not answer in \(spoken)")
    }
}
