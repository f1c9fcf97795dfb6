import Foundation
import HoorayDelivery
import HooraySystemTesting
import Logging

/// The session bus of this whole test process.
///
/// GIO connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` when the process first uses
/// it, and libnotify is process-global, so a process can only sensibly talk to one session bus. All
/// delivery tests therefore share this private bus: it is started once, before the first
/// `NotificationDelivery` exists, and the variable is set in this process's environment then. The
/// suites that use it are `.serialized`, and each test starts and stops its own notification
/// servers on it. Other suites in the process never read the variable: their child processes get
/// their own bus address explicitly.
actor SharedSessionBus {
    static let shared = SharedSessionBus()

    private var bus: PrivateSessionBus?

    /// The bus, started and exported on first use, and restarted if a test stopped it.
    func running() async throws -> PrivateSessionBus {
        if let bus {
            try await bus.start()
            return bus
        }
        let bus = try await PrivateSessionBus()
        setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
        self.bus = bus
        return bus
    }
}

/// Collects delivery events as they come, so tests can wait for one without consuming the stream.
final class EventRecorder: Sendable {
    private let state = LockedEvents()
    private let task: Task<Void, Never>

    init(_ events: AsyncStream<DeliveryEvent>) {
        task = Task { [state] in
            for await event in events { state.append(event) }
        }
    }

    deinit {
        task.cancel()
    }

    /// Every event so far.
    var all: [DeliveryEvent] { state.all }

    /// How many events arrived so far, to wait for events after this point.
    func mark() -> Int { state.all.count }

    /// Waits for an event that matches, among those after `mark`.
    func waitFor(
        after mark: Int = 0,
        timeout: Duration = .seconds(30),
        _ matches: @escaping (DeliveryEvent) -> Bool
    ) async -> DeliveryEvent? {
        await pollUntil(timeout: timeout) { self.state.all.dropFirst(mark).first(where: matches) }
    }

    /// Waits for `event` after `mark`.
    func waitFor(_ event: DeliveryEvent, after mark: Int = 0, timeout: Duration = .seconds(30)) async -> Bool {
        await waitFor(after: mark, timeout: timeout) { $0 == event } != nil
    }
}

private final class LockedEvents: @unchecked Sendable {
    // Appended to by the recording task and read by the test; the lock orders the two.
    private let lock = NSLock()
    private var events: [DeliveryEvent] = []

    func append(_ event: DeliveryEvent) { lock.withLock { events.append(event) } }
    var all: [DeliveryEvent] { lock.withLock { events } }
}

/// One test's delivery: a `NotificationDelivery` on the shared bus, its events, and the servers
/// the test started, all cleaned up by ``withDelivery(timeout:busRetryInterval:_:)``.
final class DeliveryHarness {
    let bus: PrivateSessionBus
    let delivery: NotificationDelivery
    let events: EventRecorder
    private var servers: [TestNotificationServer] = []

    fileprivate init(timeout: Duration, busRetryInterval: Duration) async throws {
        bus = try await SharedSessionBus.shared.running()
        var logger = Logger(label: "hooray.delivery.tests")
        logger.logLevel = .error
        delivery = NotificationDelivery(
            configuration: .init(timeout: timeout, busRetryInterval: busRetryInterval, logger: logger)
        )
        events = EventRecorder(delivery.events)
    }

    /// Starts a notification server on the bus; it is stopped when the test ends.
    func startServer(
        capabilities: [String] = TestNotificationServer.defaultCapabilities,
        hang: Bool = false,
        answerDelay: Duration? = nil,
        name: String = "hooray-test-server",
        inhibited: Bool? = nil,
        makoModes: [String]? = nil
    ) async throws -> TestNotificationServer {
        let server = try await TestNotificationServer(
            busAddress: bus.address,
            capabilities: capabilities,
            hang: hang,
            answerDelay: answerDelay,
            name: name,
            inhibited: inhibited,
            makoModes: makoModes
        )
        servers.append(server)
        return server
    }

    fileprivate func finish() async {
        // Servers first: a delivery thread blocked on a hung server is released when it goes.
        for server in servers { await server.stop() }
        await delivery.shutdown()
    }
}

/// Runs a delivery test with its own `NotificationDelivery` on the shared bus, and cleans up.
func withDelivery(
    timeout: Duration = .seconds(5),
    busRetryInterval: Duration = .milliseconds(100),
    _ body: (DeliveryHarness) async throws -> Void
) async throws {
    let harness = try await DeliveryHarness(timeout: timeout, busRetryInterval: busRetryInterval)
    do {
        try await body(harness)
    } catch {
        await harness.finish()
        throw error
    }
    await harness.finish()
}

extension DeliveryOutcome {
    var reason: String? {
        if case .unavailable(let reason) = self { return reason }
        return nil
    }
}
