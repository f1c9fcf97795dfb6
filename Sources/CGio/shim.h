#ifndef HOORAY_CGIO_SHIM_H
#define HOORAY_CGIO_SHIM_H
// GLib, GObject and GIO: what the keyring's C speaks (libnotify links them as well).
#include <gio/gio.h>
#endif
