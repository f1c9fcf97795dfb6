import CGtk

/// The app's own look: style sheets, and whether the desktop wants motion.
public enum Style {
    /// Adds a style sheet for every widget of the display, over libadwaita's.
    ///
    /// - Parameter css: GTK CSS, such as a class with an animation.
    @MainActor
    public static func load(css: String) {
        guard let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
    }

    /// Whether the desktop has animations on: off when the user asked for reduced motion.
    @MainActor
    public static var animationsEnabled: Bool { hooray_gtk_animations_enabled() != 0 }
}
