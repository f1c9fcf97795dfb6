import Foundation

/// A D-Bus service that owns a bus name but never answers, like a program that hangs.
///
/// It runs a few lines of Python on Debian's `/usr/bin/python3` with `dbus-next`: the program
/// requests the name and then swallows every method call addressed to it, without an error reply,
/// so a client waits until its own timeout. Use it to check that a client gives up in time.
///
/// ```swift
/// let hung = try await UnresponsiveService(busAddress: bus.address, name: "org.freedesktop.secrets")
/// ```
///
/// It exits by itself when its bus goes away.
public final class UnresponsiveService: Sendable {
    /// The bus name it owns.
    public let name: String
    private let process: ChildProcess

    private static let script = """
        import asyncio, sys
        from dbus_next.aio import MessageBus
        from dbus_next.constants import MessageType

        async def main(name):
            bus = await MessageBus().connect()
            # True means "handled": dbus-next then sends no reply, not even an error.
            bus.add_message_handler(lambda message: message.message_type == MessageType.METHOD_CALL or None)
            await bus.request_name(name)
            print("READY", flush=True)
            await bus.wait_for_disconnect()

        asyncio.run(main(sys.argv[1]))
        """

    /// Starts the service and waits until it owns the name.
    ///
    /// - Parameters:
    ///   - busAddress: The bus to own the name on, such as ``PrivateSessionBus/address``.
    ///   - name: The bus name, such as `org.freedesktop.secrets`.
    ///   - timeout: How long it may take to start.
    /// - Throws: ``SystemTestingError/notReady(what:output:)`` when it does not start.
    public init(busAddress: String, name: String, timeout: Duration = .seconds(10)) async throws {
        self.name = name
        process = try ChildProcess(
            "/usr/bin/python3",
            arguments: ["-c", Self.script, name],
            environment: .inherited(overriding: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        )
        guard await process.waitForOutput(containing: "READY", timeout: timeout) else {
            await process.stop(gracePeriod: .seconds(1))
            throw SystemTestingError.notReady(
                what: "an unresponsive \(name) on \(busAddress)",
                output: process.standardOutput + process.standardError
            )
        }
    }

    /// Ends the service.
    public func stop() async {
        await process.stop(gracePeriod: .seconds(1))
    }
}
