import CGtk

/// A GObject held from Swift: one reference of its own, given back when this goes.
///
/// GTK's constructors hand out a *floating* reference for widgets (the first container that takes
/// the widget owns it) and none at all for a window (GTK's list of windows owns it until
/// ``Window/destroy()``). ``init(constructed:)`` takes either kind so that Swift owns one reference
/// in both: a widget lives as long as Swift or a container holds it, and a window until it is both
/// destroyed and no longer held from Swift.
///
/// Signal handlers (``connect(_:_:)``) are kept by the object, so a handler must not hold its own
/// object strongly (capture it `[weak self]` or `[weak window]`), or neither is ever freed.
@MainActor
open class GObjectReference {
    /// The object, a `GObject *`.
    public let object: UnsafeMutablePointer<GObject>

    /// Holds an object a GTK constructor returned: a floating reference is taken over, and any other
    /// object gets one more reference.
    ///
    /// - Parameter pointer: What `gtk_button_new()`, `gtk_window_new()` and the like returned.
    public init(constructed pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref_sink(object)
    }

    /// Holds an object whose reference the caller owns and hands over (a "transfer full" return,
    /// such as `g_object_new` of a type that is not floating).
    ///
    /// - Parameter pointer: The object.
    public init(owning pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
    }

    /// Holds an object someone else owns, adding a reference.
    ///
    /// - Parameter pointer: The object.
    public init(retaining pointer: UnsafeMutableRawPointer) {
        object = pointer.assumingMemoryBound(to: GObject.self)
        g_object_ref(object)
    }

    isolated deinit {
        g_object_unref(object)
    }

    /// How many references the object has, this one included: for tests that show what keeps it alive.
    public var referenceCount: Int { Int(hooray_gtk_ref_count(object)) }

    /// Runs `action` once the object is freed (a GObject weak reference): for tests that show it is.
    ///
    /// - Parameter action: What to do; it must not touch the object.
    public func whenFreed(_ action: @escaping @MainActor () -> Void) {
        let box = Unmanaged.passRetained(HandlerBox(action)).toOpaque()
        g_object_weak_ref(object, freedTrampoline, box)
    }
}

/// Runs and releases a ``GObjectReference/whenFreed(_:)`` action.
private let freedTrampoline: GWeakNotify = { data, _ in
    let box = Unmanaged<HandlerBox<@MainActor () -> Void>>.fromOpaque(data!).takeRetainedValue()
    MainActor.assumeIsolated { box.handler() }
}
