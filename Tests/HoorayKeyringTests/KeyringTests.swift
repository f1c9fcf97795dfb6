import HoorayKeyring
import HooraySystemTesting
import Testing

/// Hooray's keyring items against a real GNOME Keyring on a private bus, read back with `secret-tool`.
@Suite struct KeyringStorageTests {
    @Test func storedIdentityIsReadBackBySecretToolAndByLookup() async throws {
        try await withKeyringDaemon { fixture in
            // When
            try fixture.keyring.store(.identity, value: "anon-1234")

            // Then: another program finds it under Hooray's attributes and label.
            #expect(try await fixture.daemon.lookup(attributes: ["kind": "identity"]) == "anon-1234")
            let items = try await fixture.daemon.search(attributes: KeyringFixture.identityAttributes)
            #expect(items == [.init(label: "Hooray anonymous id", schema: "org.hooray.Secret", secret: "anon-1234")])
            #expect(fixture.keyring.lookup(.identity) == .found("anon-1234"))
            #expect(fixture.keyring.state() == .available(service: "GNOME Keyring"))
        }
    }

    @Test func storingAgainReplacesTheItem() async throws {
        try await withKeyringDaemon { fixture in
            try fixture.keyring.store(.identity, value: "first")
            try fixture.keyring.store(.identity, value: "second")

            let items = try await fixture.daemon.search(attributes: KeyringFixture.identityAttributes)
            #expect(items.map(\.secret) == ["second"])
            #expect(fixture.keyring.lookup(.identity) == .found("second"))
        }
    }

    @Test func aiKeyIsLabelledWithItsProviderAndKeptApartFromTheIdentity() async throws {
        try await withKeyringDaemon { fixture in
            try fixture.keyring.store(.aiKey(provider: "openai"), value: "sk-test-key")

            let attributes = ["xdg:schema": "org.hooray.Secret", "kind": "ai-key", "provider": "openai"]
            let items = try await fixture.daemon.search(attributes: attributes)
            #expect(items.map(\.label) == ["Hooray AI key (openai)"])
            #expect(try await fixture.daemon.lookup(attributes: attributes) == "sk-test-key")
            #expect(fixture.keyring.lookup(.aiKey(provider: "openai")) == .found("sk-test-key"))
            #expect(fixture.keyring.lookup(.aiKey(provider: "mistral")) == .notFound)
            #expect(fixture.keyring.lookup(.identity) == .notFound)
        }
    }

    @Test func duplicatesMadeByAnotherProgramAreAmbiguousUntilStoreCleansThemUp() async throws {
        try await withKeyringDaemon { fixture in
            // Given: two items with Hooray's attributes, made behind its back. secret-tool replaces
            // an item with exactly the same attributes, so each gets one more of its own.
            for copy in ["1", "2"] {
                try await fixture.daemon.store(
                    label: "copy \(copy)",
                    attributes: KeyringFixture.identityAttributes.merging(["copy": copy]) { a, _ in a },
                    value: "value \(copy)")
            }
            #expect(fixture.keyring.lookup(.identity) == .ambiguous(count: 2))

            // When
            try fixture.keyring.store(.identity, value: "the one")

            // Then
            let items = try await fixture.daemon.search(attributes: KeyringFixture.identityAttributes)
            #expect(items.map(\.secret) == ["the one"])
            #expect(fixture.keyring.lookup(.identity) == .found("the one"))
        }
    }

    @Test func deleteRemovesEveryCopyAndThenFindsNothing() async throws {
        try await withKeyringDaemon { fixture in
            try fixture.keyring.store(.identity, value: "ours")
            try await fixture.daemon.store(
                label: "a copy", attributes: KeyringFixture.identityAttributes.merging(["copy": "1"]) { a, _ in a },
                value: "theirs")
            try fixture.keyring.store(.aiKey(provider: "openai"), value: "sk-kept")

            #expect(try fixture.keyring.delete(.identity) == true)
            #expect(try await fixture.daemon.search(attributes: KeyringFixture.identityAttributes).isEmpty)
            #expect(fixture.keyring.lookup(.identity) == .notFound)
            #expect(try fixture.keyring.delete(.identity) == false)
            // Other kinds are left alone.
            #expect(fixture.keyring.lookup(.aiKey(provider: "openai")) == .found("sk-kept"))
        }
    }
}

/// A locked keyring is reported, never prompted for, and comes back once unlocked.
@Suite struct LockedKeyringTests {
    @Test func lockedCollectionIsReportedQuicklyAndTheValueReturnsAfterUnlocking() async throws {
        try await withKeyringDaemon { fixture in
            try fixture.keyring.store(.identity, value: "anon-5678")

            // When
            try await fixture.daemon.lock()

            // Then: no prompt, no wait for one.
            let (lookup, elapsed) = timed { fixture.keyring.lookup(.identity) }
            #expect(lookup == .locked)
            #expect(elapsed < .seconds(4), "it waited as for a prompt or a timeout")
            #expect(fixture.keyring.state() == .locked(service: "GNOME Keyring"))
            #expect(fixture.keyring.lookup(.aiKey(provider: "openai")) == .notFound)

            // When: the keyring is unlocked again (as at the next login).
            try await fixture.daemon.restartUnlocked()

            // Then
            #expect(fixture.keyring.lookup(.identity) == .found("anon-5678"))
            #expect(fixture.keyring.state() == .available(service: "GNOME Keyring"))
        }
    }

    @Test func storeAndDeleteOnALockedCollectionThrowLockedWithoutTheSecret() async throws {
        try await withKeyringDaemon { fixture in
            try fixture.keyring.store(.identity, value: "old-value")
            try await fixture.daemon.lock()

            let (storeError, elapsed) = timed {
                #expect(throws: KeyringError.self) { try fixture.keyring.store(.identity, value: "new-secret-value") }
            }
            #expect(storeError?.code == .locked)
            #expect(elapsed < .seconds(4), "it waited as for a prompt or a timeout")
            #expect(storeError.map { !"\($0)".contains("new-secret-value") } == true)
            #expect(storeError.map { "\($0)".contains("GNOME Keyring") } == true)

            let deleteError = #expect(throws: KeyringError.self) { try fixture.keyring.delete(.identity) }
            #expect(deleteError?.code == .locked)

            // Nothing changed behind the lock.
            try await fixture.daemon.restartUnlocked()
            #expect(fixture.keyring.lookup(.identity) == .found("old-value"))
        }
    }

    @Test func unlockWithoutADisplayFailsInsteadOfHanging() async throws {
        try await withKeyringDaemon { fixture in
            #expect(fixture.keyring.unlock() == true)  // already unlocked: no prompt needed
            try await fixture.daemon.lock()

            // The daemon cannot show its prompt on this headless machine, so unlocking fails.
            let (unlocked, elapsed) = timed { fixture.keyring.unlock(promptTimeout: .seconds(10)) }
            #expect(unlocked == false)
            #expect(elapsed < .seconds(10))
            #expect(try await fixture.daemon.isLocked())
        }
    }
}

/// Without a working Secret Service, every call answers in time.
@Suite struct UnavailableKeyringTests {
    @Test func noSecretServiceOnTheBusIsUnavailableAtOnce() async throws {
        let bus = try await PrivateSessionBus()
        let keyring = Keyring(busAddress: bus.address)

        let (lookup, elapsed) = timed { keyring.lookup(.identity) }
        #expect(lookup == .unavailable(reason: "no Secret Service on the session bus"))
        #expect(elapsed < .seconds(4), "it waited as for a timeout")
        #expect(keyring.state() == .unavailable(reason: "no Secret Service on the session bus"))
        let error = #expect(throws: KeyringError.self) { try keyring.store(.identity, value: "secret-value") }
        #expect(error?.code == .noSecretService)
        #expect(error.map { "\($0)".contains("gnome-keyring") } == true)
        await bus.stop()
    }

    @Test(arguments: ["", "unix:path=/tmp/hooray-no-such-bus/bus"])
    func noSessionBusIsUnavailableAtOnce(address: String) {
        let keyring = Keyring(busAddress: address)

        let (lookup, elapsed) = timed { keyring.lookup(.identity) }
        guard case .unavailable(let reason) = lookup else {
            Issue.record("expected unavailable, got \(lookup)")
            return
        }
        #expect(reason.hasPrefix("no session bus"))
        #expect(elapsed < .seconds(4), "it waited as for a timeout")
        let error = #expect(throws: KeyringError.self) { try keyring.delete(.identity) }
        #expect(error?.code == .noSessionBus)
    }

    @Test func aServiceThatNeverAnswersCostsOneTimeout() async throws {
        let bus = try await PrivateSessionBus()
        let hung = try await UnresponsiveService(busAddress: bus.address, name: "org.freedesktop.secrets")
        let keyring = Keyring(timeout: .seconds(1), busAddress: bus.address)

        let (lookup, elapsed) = timed { keyring.lookup(.identity) }
        #expect(lookup == .unavailable(reason: "the keyring did not answer in 1 s"))
        #expect(elapsed >= .seconds(1) && elapsed < .seconds(4))

        let (state, stateElapsed) = timed { keyring.state() }
        #expect(state == .unavailable(reason: "the keyring did not answer in 1 s"))
        #expect(stateElapsed < .seconds(4))

        let (error, storeElapsed) = timed {
            #expect(throws: KeyringError.self) { try keyring.store(.identity, value: "secret-value") }
        }
        #expect(error?.code == .timedOut)
        #expect(error?.description.contains("1 s") == true)
        #expect(storeElapsed < .seconds(4))
        await hung.stop()
        await bus.stop()
    }
}
