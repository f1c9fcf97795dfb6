import CGtk
import Glibc

/// The app (`AdwApplication`): one per process, one running instance per session.
///
/// Its id, such as `org.hooray.Hooray`, is its name on the session bus: a second launch finds the
/// first one there, hands it `activate` and exits, so the first can raise its window. libadwaita
/// also loads its style and follows the desktop's dark or light preference.
@MainActor
public final class Application: GObjectReference {
    /// An application with the reverse-DNS `id`.
    public init(id: String) {
        super.init(owning: adw_application_new(id, G_APPLICATION_DEFAULT_FLAGS))
    }

    /// Runs `action` when the app is launched: once as it starts, and again in the first instance
    /// each time another launch hands over to it.
    @discardableResult
    public func onActivate(_ action: @escaping @MainActor () -> Void) -> SignalConnection {
        connect("activate", action)
    }

    /// Runs the app until its last window closes or ``quit()``; serves the main actor meanwhile
    /// (``MainLoop/serveMainActor()``). Command-line arguments are the caller's to read.
    ///
    /// - Returns: The status to exit with.
    public func run() -> Int32 {
        MainLoop.serveMainActor()
        return g_application_run(application, 0, nil)
    }

    /// Registers the app on the session bus without running it: tells whether another instance
    /// has the id already (``isRemote``).
    ///
    /// - Returns: Whether it could register; `false` when the session bus cannot be reached.
    @discardableResult
    public func register() -> Bool {
        g_application_register(application, nil, nil) != 0
    }

    /// Whether another process is the running instance, so activating this one hands over to it.
    public var isRemote: Bool { g_application_get_is_remote(application) != 0 }

    /// Activates the app: in the running instance, wherever it is.
    public func activate() {
        g_application_activate(application)
    }

    /// Adds an action of the app, run by its keyboard shortcuts from any of its windows, such as
    /// Ctrl+N for a new moment (a `GSimpleAction` named `app.NAME`).
    ///
    /// - Parameters:
    ///   - name: The action's name, such as `"new-moment"`.
    ///   - shortcuts: Its shortcuts, as GTK writes them: `"<Control>n"`.
    ///   - action: What it does.
    public func addAction(_ name: String, shortcuts: [String], _ action: @escaping @MainActor () -> Void) {
        let simple = GObjectReference(owning: UnsafeMutableRawPointer(g_simple_action_new(name, nil)!))
        simple.connect("activate", action)
        g_action_map_add_action(OpaquePointer(object), OpaquePointer(simple.object))
        var accelerators = shortcuts.map { strdup($0) } + [nil]
        defer { for accelerator in accelerators { free(accelerator) } }
        accelerators.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                gtk_application_set_accels_for_action(gtkApplication, "app.\(name)", $0)
            }
        }
    }

    /// The shortcuts of an action of the app, as ``addAction(_:shortcuts:_:)`` set them.
    public func shortcuts(of name: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(gtkApplication, "app.\(name)") else { return [] }
        defer { g_strfreev(list) }
        var found: [String] = []
        var index = 0
        while let accelerator = list[index] {
            found.append(String(cString: accelerator))
            index += 1
        }
        return found
    }

    /// Runs an action of the app, as its shortcut would.
    public func activateAction(_ name: String) {
        g_action_group_activate_action(OpaquePointer(object), name, nil)
    }

    /// Keeps the app running without a window, such as while an action asked for over the bus
    /// finishes its work; each call needs one ``release()``.
    public func hold() {
        g_application_hold(application)
    }

    /// Ends one ``hold()``: without windows or other holds, the app then quits.
    public func release() {
        g_application_release(application)
    }

    /// Stops ``run()``.
    public func quit() {
        g_application_quit(application)
    }

    private var gtkApplication: UnsafeMutablePointer<GtkApplication> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkApplication.self)
    }

    var application: UnsafeMutablePointer<GApplication> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GApplication.self)
    }
}

/// The app's main window (`AdwApplicationWindow`): it belongs to the application, which runs as
/// long as one is open. Its content is set with ``content``, header bar included.
@MainActor
public final class ApplicationWindow: Window {
    /// A new window of `application`, not shown yet.
    public init(application: Application, title: String) {
        super.init(
            constructedWindow: adw_application_window_new(
                UnsafeMutableRawPointer(application.object).assumingMemoryBound(to: GtkApplication.self)),
            title: title)
    }

    /// What the window shows, all of it.
    public var content: Widget? {
        didSet {
            adw_application_window_set_content(
                UnsafeMutableRawPointer(object).assumingMemoryBound(to: AdwApplicationWindow.self), content?.widget)
        }
    }
}
