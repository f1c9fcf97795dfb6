#ifndef HOORAY_CGTK_SHIM_H
#define HOORAY_CGTK_SHIM_H
// GTK 4 and libadwaita (Debian 12: GTK 4.8, libadwaita 1.2) for the desktop app's Swift layer.
#include <adwaita.h>
#include <glib-unix.h>
// gettext, for the app's translations (glibc's; Swift's Glibc module leaves libintl.h out).
#include <libintl.h>
#include <locale.h>

// libdispatch's hooks for a run loop other than its own, which CoreFoundation's uses on Linux: the
// main queue's file descriptor (readable when jobs wait), and running those jobs. GLib's main loop
// watches the one and calls the other, so that the main actor's jobs run on GTK's thread.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

// g_signal_connect is a macro; Swift cannot see it. Swapped, so that the closure box comes first
// whatever the signal's own arguments (`notify` passes a GParamSpec, say): a handler that reads only
// its first argument fits every signal. The box is released by `destroy` when the handler is
// disconnected or the object finalized.
static inline gulong hooray_gtk_signal_connect(gpointer instance, const gchar *signal, GCallback handler,
                                               gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, G_CONNECT_SWAPPED);
}

// g_signal_emit_by_name is variadic; Swift cannot call it. A signal with no arguments and no return value.
static inline void hooray_gtk_emit(gpointer instance, const gchar *signal) {
    g_signal_emit_by_name(instance, signal);
}

// An object's reference count, for tests that show nothing is kept alive.
static inline guint hooray_gtk_ref_count(gpointer object) {
    return (guint)g_atomic_int_get((gint *)&((GObject *)object)->ref_count);
}
// gtk_accessible_update_property is variadic: a widget's accessible label.
static inline void hooray_gtk_set_accessible_label(GtkWidget *widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
// g_object_get is variadic: whether the desktop has animations on (GtkSettings' gtk-enable-animations,
// off with reduce-motion and in GNOME's accessibility settings).
static inline gboolean hooray_gtk_animations_enabled(void) {
    gboolean enabled = TRUE;
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) g_object_get(settings, "gtk-enable-animations", &enabled, NULL);
    return enabled;
}
// A button's mnemonic label names it for screen readers through "labelled-by", which GTK 4.8 adds to
// the button's own label ("_Save Save"): with the relation gone, the label property alone names it.
static inline void hooray_gtk_reset_labelled_by(GtkWidget *widget) {
    gtk_accessible_reset_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_LABELLED_BY);
}
// gtk_accessible_update_state is variadic: a widget hidden from screen readers (a stack's pages but
// the one shown; GTK 4.8 reports them all as visible otherwise).
static inline void hooray_gtk_set_accessible_hidden(GtkWidget *widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}
// gtk_accessible_update_state and _relation are variadic: a field whose value is to be fixed, described
// by the line that says why (a screen reader says "invalid" and reads the line), or neither.
static inline void hooray_gtk_set_invalid(GtkWidget *widget, GtkWidget *problem) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_INVALID,
                                problem ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
    if (problem) {
        gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, problem, NULL,
                                       -1);
    } else {
        gtk_accessible_reset_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY);
    }
}
// A window kept centred on its monitor under X11, where GTK 4 has no call for it: moved each time its
// surface gets a new size (the first layout after it is shown, and when its content grows). (Wayland
// leaves placement to the compositor.) The X11 calls are declared here rather than through
// <gdk/x11/gdkx.h>, whose Xlib names (Window, Display, Screen) would clash with ours.
extern GType gdk_x11_surface_get_type(void);
extern unsigned long gdk_x11_surface_get_xid(GdkSurface *surface);
extern void *gdk_x11_display_get_xdisplay(GdkDisplay *display);
extern int XMoveWindow(void *display, unsigned long window, int x, int y);
extern int XFlush(void *display);
static inline void hooray_gtk_center_layout_(GdkSurface *surface, int width, int height, gpointer unused) {
    (void)unused;
    // Moved once per size: a move alone lays nothing out again.
    gpointer size = GINT_TO_POINTER((width << 16) | (height & 0xffff));
    if (g_object_get_data(G_OBJECT(surface), "hooray-centred-size") == size) return;
    g_object_set_data(G_OBJECT(surface), "hooray-centred-size", size);
    GdkDisplay *display = gdk_surface_get_display(surface);
    GdkMonitor *monitor = gdk_display_get_monitor_at_surface(display, surface);
    if (!monitor) return;
    GdkRectangle area;
    gdk_monitor_get_geometry(monitor, &area);
    void *xdisplay = gdk_x11_display_get_xdisplay(display);
    XMoveWindow(xdisplay, gdk_x11_surface_get_xid(surface), area.x + (area.width - width) / 2,
                area.y + (area.height - height) / 2);
    XFlush(xdisplay);
}
static inline void hooray_gtk_center_realized_(GtkWidget *window, gpointer unused) {
    (void)unused;
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface && G_TYPE_CHECK_INSTANCE_TYPE(surface, gdk_x11_surface_get_type()))
        g_signal_connect(surface, "layout", G_CALLBACK(hooray_gtk_center_layout_), NULL);
}
static inline void hooray_gtk_keep_centered(GtkWidget *window) {
    if (gtk_widget_get_realized(window)) hooray_gtk_center_realized_(window, NULL);
    else g_signal_connect(window, "realize", G_CALLBACK(hooray_gtk_center_realized_), NULL);
}
// A benchmark's signal that a window is drawn: `report` runs with the window's title after the first
// `after-paint` of its GdkFrameClock (the first frame, content included), once per window the app adds.
typedef void (*HoorayFrameReport)(const char *title);
static inline void hooray_gtk_first_paint_(GdkFrameClock *clock, gpointer window) {
    g_signal_handlers_disconnect_by_func(clock, (gpointer)hooray_gtk_first_paint_, window);
    HoorayFrameReport report = (HoorayFrameReport)g_object_get_data(G_OBJECT(window), "hooray-frame-report");
    if (report) report(gtk_window_get_title(GTK_WINDOW(window)));
}
static inline void hooray_gtk_watch_first_paint_(GtkWidget *window, gpointer unused) {
    (void)unused;
    GdkFrameClock *clock = gtk_widget_get_frame_clock(window);
    if (clock) g_signal_connect(clock, "after-paint", G_CALLBACK(hooray_gtk_first_paint_), window);
}
static inline void hooray_gtk_window_added_(GtkApplication *application, GtkWindow *window, gpointer report) {
    (void)application;
    g_object_set_data(G_OBJECT(window), "hooray-frame-report", report);
    if (gtk_widget_get_realized(GTK_WIDGET(window))) hooray_gtk_watch_first_paint_(GTK_WIDGET(window), NULL);
    else g_signal_connect(window, "realize", G_CALLBACK(hooray_gtk_watch_first_paint_), NULL);
}
static inline void hooray_gtk_report_first_frames(gpointer application, HoorayFrameReport report) {
    g_signal_connect(application, "window-added", G_CALLBACK(hooray_gtk_window_added_), (gpointer)report);
}
// Shows a window without taking the keyboard focus from the window the user is in: on X11 its user
// time is 0 (EWMH: "not to be focused when mapped"); Wayland compositors never hand focus to a window
// shown without an activation token. The two calls of <gdk/x11/gdkx.h> are declared here so that
// Xlib's names (Window, Display, Status) stay out of Swift.
GType gdk_x11_surface_get_type(void);
void gdk_x11_surface_set_user_time(GdkSurface *surface, guint32 timestamp);
static inline void hooray_gtk_show_without_focus(GtkWindow *window) {
    gtk_widget_realize(GTK_WIDGET(window));
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface && G_TYPE_CHECK_INSTANCE_TYPE(surface, gdk_x11_surface_get_type()))
        gdk_x11_surface_set_user_time(surface, 0);
    gtk_widget_set_visible(GTK_WIDGET(window), TRUE);
}
// Whether the window the user is in is full screen, on X11 (EWMH: the root's _NET_ACTIVE_WINDOW has
// _NET_WM_STATE_FULLSCREEN in its _NET_WM_STATE); FALSE elsewhere (Wayland tells no client). The
// calls of Xlib and <gdk/x11/gdkx.h> it needs are declared here, with the display as a plain
// pointer, so that Xlib's names stay out of Swift; X errors (a window gone meanwhile) are trapped.
GType gdk_x11_display_get_type(void);
void *gdk_x11_display_get_xdisplay(GdkDisplay *display);
void gdk_x11_display_error_trap_push(GdkDisplay *display);
void gdk_x11_display_error_trap_pop_ignored(GdkDisplay *display);
unsigned long XInternAtom(void *display, const char *name, int only_if_exists);
unsigned long XDefaultRootWindow(void *display);
int XGetWindowProperty(void *display, unsigned long window, unsigned long property, long offset, long length,
                       int delete_, unsigned long type, unsigned long *actual_type, int *actual_format,
                       unsigned long *count, unsigned long *remaining, unsigned char **value);
int XFree(void *data);
static inline gboolean hooray_gtk_full_screen_window_active(void) {
    GdkDisplay *display = gdk_display_get_default();
    if (!display || !G_TYPE_CHECK_INSTANCE_TYPE(display, gdk_x11_display_get_type())) return FALSE;
    void *x = gdk_x11_display_get_xdisplay(display);
    unsigned long type = 0, count = 0, remaining = 0, active = 0;
    int format = 0;
    unsigned char *value = NULL;
    gboolean full = FALSE;
    gdk_x11_display_error_trap_push(display);
    // Of any type (0, AnyPropertyType: WINDOW and ATOM by the book); format 32 comes as longs.
    if (XGetWindowProperty(x, XDefaultRootWindow(x), XInternAtom(x, "_NET_ACTIVE_WINDOW", 0), 0, 1, 0, 0,
                           &type, &format, &count, &remaining, &value) == 0 && value) {
        if (count == 1 && format == 32) active = *(unsigned long *)value;
        XFree(value);
    }
    value = NULL;
    if (active && XGetWindowProperty(x, active, XInternAtom(x, "_NET_WM_STATE", 0), 0, 64, 0, 0, &type, &format,
                                     &count, &remaining, &value) == 0 && value) {
        unsigned long fullscreen = XInternAtom(x, "_NET_WM_STATE_FULLSCREEN", 0);
        for (unsigned long i = 0; format == 32 && i < count; i++)
            if (((unsigned long *)value)[i] == fullscreen) full = TRUE;
        XFree(value);
    }
    gdk_x11_display_error_trap_pop_ignored(display);
    return full;
}
// A drawing area that screen readers know as an image (its role is fixed when it is made, and
// g_object_new is variadic): a chart or a calendar the app draws, with its text as the label.
static inline GtkWidget *hooray_gtk_drawing_area_new_image(void) {
    return GTK_WIDGET(g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, NULL));
}
// gtk_accessible_update_property is variadic: a widget's accessible description, the longer text
// a screen reader reads after its label.
static inline void hooray_gtk_set_accessible_description(GtkWidget *widget, const char *description) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}
#endif
