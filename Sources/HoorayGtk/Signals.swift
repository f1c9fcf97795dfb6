import CGtk

/// A signal handler as GObject keeps it: the Swift closure in a box the object holds one reference to.
final class HandlerBox<Handler>: @unchecked Sendable {
    // @unchecked: created, called and released on GTK's thread only.
    let handler: Handler

    init(_ handler: Handler) {
        self.handler = handler
    }
}

/// A connected signal handler, to disconnect it early with ``GObjectReference/disconnect(_:)``.
public struct SignalConnection: Hashable, Sendable {
    /// GObject's handler id.
    public let id: UInt
}

extension GObjectReference {
    /// Connects a handler to a signal with no arguments and no return value, such as a button's
    /// `clicked`: the closure runs on GTK's thread each time the signal is emitted, and is released
    /// when it is disconnected or the object is freed.
    ///
    /// - Parameters:
    ///   - signal: The signal's name, such as `"clicked"` or `"notify::label"`.
    ///   - handler: What to do.
    /// - Returns: The connection.
    @discardableResult
    public func connect(_ signal: String, _ handler: @escaping @MainActor () -> Void) -> SignalConnection {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let trampoline: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
            let box = Unmanaged<HandlerBox<@MainActor () -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler() }
        }
        let id = hooray_gtk_signal_connect(
            object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, releaseTrampoline)
        return SignalConnection(id: UInt(id))
    }

    /// Connects a handler to a signal that asks for a yes or no, such as a window's `close-request`
    /// (`true` stops the window from closing). A name of its own, so that a closure's body never
    /// has to say which kind it is.
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - handler: What to do, and the answer.
    /// - Returns: The connection.
    @discardableResult
    public func connectAnswering(_ signal: String, _ handler: @escaping @MainActor () -> Bool) -> SignalConnection {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let trampoline: @convention(c) (UnsafeMutableRawPointer?) -> gboolean = { data in
            let box = Unmanaged<HandlerBox<@MainActor () -> Bool>>.fromOpaque(data!).takeUnretainedValue()
            return MainActor.assumeIsolated { box.handler() } ? 1 : 0
        }
        let id = hooray_gtk_signal_connect(
            object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, releaseTrampoline)
        return SignalConnection(id: UInt(id))
    }

    /// Connects a handler to a signal whose first argument is a text, such as a message dialog's
    /// `response` (the id of the response chosen).
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - handler: What to do with the text.
    /// - Returns: The connection.
    @discardableResult
    public func connectWithText(_ signal: String, _ handler: @escaping @MainActor (String) -> Void)
        -> SignalConnection
    {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { data, text in
            let box = Unmanaged<HandlerBox<@MainActor (String) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            let value = text.map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { box.handler(value) }
        }
        let id = hooray_gtk_signal_connect(
            object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, releaseTrampoline)
        return SignalConnection(id: UInt(id))
    }

    /// Connects a handler to a signal whose first argument is a whole number, such as a file
    /// chooser's `response` (GTK's response id).
    ///
    /// - Parameters:
    ///   - signal: The signal's name.
    ///   - handler: What to do with the number.
    /// - Returns: The connection.
    @discardableResult
    public func connectWithNumber(_ signal: String, _ handler: @escaping @MainActor (Int) -> Void)
        -> SignalConnection
    {
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Void = { data, number in
            let box = Unmanaged<HandlerBox<@MainActor (Int) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated { box.handler(Int(number)) }
        }
        let id = hooray_gtk_signal_connect(
            object, signal, unsafeBitCast(trampoline, to: GCallback.self), box, releaseTrampoline)
        return SignalConnection(id: UInt(id))
    }

    /// Disconnects a handler, releasing its closure; one already gone is left alone.
    ///
    /// - Parameter connection: What ``connect(_:_:)`` returned.
    public func disconnect(_ connection: SignalConnection) {
        if g_signal_handler_is_connected(object, gulong(connection.id)) != 0 {
            g_signal_handler_disconnect(object, gulong(connection.id))
        }
    }

    /// Emits a signal with no arguments and no return value, as a click emits a button's `clicked`.
    ///
    /// - Parameter signal: The signal's name.
    public func emit(_ signal: String) {
        hooray_gtk_emit(object, signal)
    }
}

/// Releases a handler's box when GObject drops the handler.
private let releaseTrampoline: GClosureNotify = { data, _ in
    Unmanaged<AnyObject>.fromOpaque(data!).release()
}
