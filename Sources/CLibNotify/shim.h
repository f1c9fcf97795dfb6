#ifndef HOORAY_CLIBNOTIFY_SHIM_H
#define HOORAY_CLIBNOTIFY_SHIM_H
#include <libnotify/notify.h>
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>

// g_signal_connect is a macro; Swift cannot see it.
static inline gulong hooray_signal_connect(gpointer instance, const gchar *signal, GCallback handler, gpointer data) {
    return g_signal_connect_data(instance, signal, handler, data, NULL, (GConnectFlags)0);
}

// Replacing a notification shown by an earlier process: set its server id.
static inline void hooray_notification_set_id(NotifyNotification *n, gint id) {
    g_object_set(G_OBJECT(n), "id", id, NULL);
}

static inline gint hooray_notification_get_id(NotifyNotification *n) {
    gint id = 0;
    g_object_get(G_OBJECT(n), "id", &id, NULL);
    return id;
}
#endif
