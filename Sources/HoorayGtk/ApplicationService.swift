import CGtk
import Glibc

/// The app as a D-Bus service: started by the session bus on demand (D-Bus activation runs it
/// with `--gapplication-service`), it opens no window of its own but does what it is asked through
/// `org.freedesktop.Application` (`ActivateAction`), then quits once its last window closed.
extension Application {
    /// The argument D-Bus activation starts a GApplication with (the service file's `Exec`).
    public static let serviceArgument = "--gapplication-service"

    /// Runs the app as a service (`G_APPLICATION_IS_SERVICE`): ``run()`` waits for requests on the
    /// bus rather than activating, and ends a few seconds after the last window closed. Call it
    /// before ``run()``.
    public func runAsService() {
        g_application_set_flags(application, G_APPLICATION_IS_SERVICE)
    }

    /// Adds an action of the app that takes `count` texts, as `org.freedesktop.Application`'s
    /// `ActivateAction` hands them over (a tuple of strings, such as `(sss)`). A call with
    /// another parameter is refused by GIO before it reaches `action`.
    ///
    /// - Parameters:
    ///   - name: The action's name, such as `"celebrate"`.
    ///   - count: How many texts it takes.
    ///   - action: What it does with them.
    public func addAction(_ name: String, takingTexts count: Int, _ action: @escaping @MainActor ([String]) -> Void) {
        let type = g_variant_type_new("(" + String(repeating: "s", count: count) + ")")
        defer { g_variant_type_free(type) }
        let simple = GObjectReference(owning: UnsafeMutableRawPointer(g_simple_action_new(name, type)!))
        let box = Unmanaged.passRetained(HandlerBox(action)).toOpaque()
        // `activate` (action, parameter): swapped, the box comes first and the parameter next.
        let trampoline: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Void = { data, parameter in
            let box = Unmanaged<HandlerBox<@MainActor ([String]) -> Void>>.fromOpaque(data!).takeUnretainedValue()
            var texts: [String] = []
            if let parameter {
                for index in 0..<Int(g_variant_n_children(parameter)) {
                    let child = g_variant_get_child_value(parameter, gsize(index))
                    texts.append(g_variant_get_string(child, nil).map { String(cString: $0) } ?? "")
                    g_variant_unref(child)
                }
            }
            MainActor.assumeIsolated { box.handler(texts) }
        }
        hooray_gtk_signal_connect(
            simple.object, "activate", unsafeBitCast(trampoline, to: GCallback.self), box,
            { data, _ in Unmanaged<AnyObject>.fromOpaque(data!).release() })
        g_action_map_add_action(OpaquePointer(object), OpaquePointer(simple.object))
    }
}

extension Window {
    /// Makes the window one of `application`'s: the app runs on while it is open.
    public func belong(to application: Application) {
        gtk_window_set_application(
            UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self),
            UnsafeMutableRawPointer(application.object).assumingMemoryBound(to: GtkApplication.self))
    }

    /// Shows the window without taking the keyboard focus from the window the user is in, and
    /// without raising anything: for a window the user did not ask for, such as a celebration.
    public func showWithoutFocus() {
        hooray_gtk_show_without_focus(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self))
    }

    /// Whether the window the user is in fills the screen (a film, a game, a presentation), as the
    /// window manager says on X11; always `false` on Wayland, which tells no app.
    public static var aFullScreenWindowIsActive: Bool { hooray_gtk_full_screen_window_active() != 0 }

    /// Whether the user may resize the window.
    public var isResizable: Bool {
        get { gtk_window_get_resizable(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self)) != 0 }
        set {
            gtk_window_set_resizable(
                UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWindow.self), newValue ? 1 : 0)
        }
    }
}
