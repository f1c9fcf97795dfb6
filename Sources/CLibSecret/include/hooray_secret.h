#ifndef HOORAY_SECRET_H
#define HOORAY_SECRET_H
// libsecret, loaded with dlopen at the first keyring operation instead of linked.
//
// A process that never opens the keyring (hoorayd until an AI key or the identity is read, and
// every `hooray` command but a few) then maps none of libsecret and the libraries it pulls in
// (libgcrypt, libgpg-error) and binds none of their symbols at start; and a machine without
// libsecret gets Hooray's message naming the package instead of the loader's error. This header
// needs GLib's alone: the calls go through the functions below, which hooray_secret.c writes with
// libsecret's own header.
#include <gio/gio.h>
#include <stddef.h>

// The file name of Debian's libsecret-1-0 package.
#define HOORAY_SECRET_LIBRARY "libsecret-1.so.0"

// libsecret's types, by the names its header gives them; only pointers to them are handed around.
typedef struct _SecretService SecretService;
typedef struct _SecretCollection SecretCollection;
typedef struct _SecretItem SecretItem;
typedef struct _SecretValue SecretValue;

// Loads libsecret, once it succeeds (thread-safe; a failure is tried again at the next call, so
// libsecret installed meanwhile is found). Returns 1 when it is ready; otherwise 0, with why not in
// `why` (at most `size` bytes, terminated), such as the loader's "libsecret-1.so.0: cannot open
// shared object file: No such file or directory". Every function below but
// hooray_connection_close, hooray_bus_name_owner_pid and the list helpers needs it loaded.
int hooray_secret_load(char *why, size_t size);

// MARK: A SecretService on a connection of our own, which never prompts unless allowed.
//
// libsecret's SecretService always connects to the process's shared session bus (its constructor
// sets `g-bus-type`). Hooray opens a private connection per operation instead: the shared one
// raises SIGTERM in the whole process when the bus goes away (exit-on-close), follows no change of
// DBUS_SESSION_BUS_ADDRESS, and may autolaunch a bus. A subclass puts `g-bus-type` back to NONE
// after libsecret's constructor, so GDBusProxy uses the `g-connection` it was given.
//
// It also replaces the prompt virtual methods: a prompt (the desktop's unlock or confirmation
// dialog) is shown only while hooray_secret_service_allow_prompts is on. Otherwise any libsecret
// path that would prompt (storing into a locked collection, for instance) fails at once with
// SECRET_ERROR_IS_LOCKED, so no call but the explicit unlock can ever put a dialog on screen.

// Connects to the bus at `address` (a connection of our own, closed by the caller with
// hooray_connection_close) and makes a Secret Service proxy on it. Returns NULL with `error` set
// when either fails; the proxy exists even when nothing owns the name (see
// hooray_secret_service_has_owner). Release the service with g_object_unref.
SecretService *hooray_secret_service_open(
    const char *address, GCancellable *cancellable, GDBusConnection **connection, GError **error);

// Lets the service show the desktop's prompt, or not (the default).
void hooray_secret_service_allow_prompts(SecretService *service, gboolean allow);

// Whether something owns the bus name the proxy talks to: a running Secret Service.
gboolean hooray_secret_service_has_owner(SecretService *service);

// Negotiates the session that reading and writing secrets needs.
gboolean hooray_secret_service_ensure_session(SecretService *service, GCancellable *cancellable, GError **error);

// The collection behind the `default` alias, or NULL (with `error` unset when there is none).
SecretCollection *hooray_secret_default_collection(SecretService *service, GCancellable *cancellable, GError **error);

// Unlocks the objects (a GList of collections or items), which may prompt if allowed; the ones
// unlocked go to `unlocked` (free with hooray_object_list_free). Returns their number, or -1.
gint hooray_secret_service_unlock(
    SecretService *service, GList *objects, GCancellable *cancellable, GList **unlocked, GError **error);

// Hooray's items: `xdg:schema` = org.hooray.Secret, `kind` = identity | ai-key | sync-key,
// `provider` = a name (AI keys only; may be NULL). Matching on the schema name keeps other
// applications' `kind` items out.

// Every item of `kind` (and `provider`), locked or not; with their secrets when `load_secrets`.
// Free the list with hooray_object_list_free.
GList *hooray_secret_search(
    SecretService *service, const char *kind, const char *provider, gboolean load_secrets,
    GCancellable *cancellable, GError **error);

// Creates an item in `collection` holding `text` (text/plain), replacing one with exactly the
// same attributes. Release it with g_object_unref.
SecretItem *hooray_secret_item_create(
    SecretCollection *collection, const char *kind, const char *provider, const char *label, const char *text,
    GCancellable *cancellable, GError **error);

gboolean hooray_secret_item_delete(SecretItem *item, GCancellable *cancellable, GError **error);
gboolean hooray_secret_item_is_locked(SecretItem *item);
gboolean hooray_secret_collection_is_locked(SecretCollection *collection);

// The item's secret as loaded by the search, or NULL; release it with hooray_secret_value_unref.
SecretValue *hooray_secret_item_get_secret(SecretItem *item);
// The secret's text, or NULL when it is not valid UTF-8 text; valid while the value is.
const char *hooray_secret_value_get_text(SecretValue *value);
void hooray_secret_value_unref(SecretValue *value);

// The D-Bus object path of an item or collection proxy.
const char *hooray_proxy_object_path(gpointer proxy);

// What a GError means (any of them may be NULL).
gboolean hooray_error_is_cancelled(const GError *error);
gboolean hooray_error_is_locked(const GError *error);
gboolean hooray_error_is_dbus(const GError *error);

// MARK: GIO and GLib helpers, which need no libsecret.

// Closes a connection made by hooray_secret_service_open and drops our reference (NULL is fine).
void hooray_connection_close(GDBusConnection *connection);

// The process id of a bus name's owner, or 0 (org.freedesktop.DBus.GetConnectionUnixProcessID).
guint32 hooray_bus_name_owner_pid(
    GDBusConnection *connection, const char *name, gint timeout_msec, GCancellable *cancellable);

// Drops the list and a reference to each of its objects (NULL is fine).
void hooray_object_list_free(GList *list);
// A one-element list for hooray_secret_service_unlock; free with hooray_list_free.
GList *hooray_list_of(gpointer object);
void hooray_list_free(GList *list);
#endif
