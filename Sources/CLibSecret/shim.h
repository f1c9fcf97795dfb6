#ifndef HOORAY_CLIBSECRET_SHIM_H
#define HOORAY_CLIBSECRET_SHIM_H
#include <libsecret/secret.h>
#include <gio/gio.h>
#include <glib-object.h>
#include <stdint.h>

// Hooray's items: `xdg:schema` = org.hooray.Secret, `kind` = identity | ai-key, `provider` = a name
// (AI keys only). Matching on the schema name keeps other applications' `kind` items out.
static const SecretSchema hooray_secret_schema = {
    "org.hooray.Secret",
    SECRET_SCHEMA_NONE,
    {
        {"kind", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"provider", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
};

static inline const SecretSchema *hooray_secret_schema_pointer(void) {
    return &hooray_secret_schema;
}

// Attributes for a search or a new item; `provider` may be NULL. Free with g_hash_table_unref.
static inline GHashTable *hooray_secret_attributes(const char *kind, const char *provider) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(attributes, g_strdup("kind"), g_strdup(kind));
    if (provider != NULL) g_hash_table_insert(attributes, g_strdup("provider"), g_strdup(provider));
    return attributes;
}

// MARK: A SecretService on a connection of our own, which never prompts unless allowed.
//
// libsecret's SecretService always connects to the process's shared session bus (its constructor
// sets `g-bus-type`). Hooray opens a private connection per operation instead: the shared one
// raises SIGTERM in the whole process when the bus goes away (exit-on-close), follows no change of
// DBUS_SESSION_BUS_ADDRESS, and may autolaunch a bus. The subclass puts `g-bus-type` back to NONE
// after libsecret's constructor, so GDBusProxy uses the `g-connection` it was given.
//
// It also replaces the prompt virtual methods: a prompt (the desktop's unlock or confirmation
// dialog) is shown only while `hooray_secret_service_allow_prompts` is on. Otherwise any libsecret
// path that would prompt (storing into a locked collection, for instance) fails at once with
// SECRET_ERROR_IS_LOCKED, so no call but the explicit unlock can ever put a dialog on screen.

#define HOORAY_SECRET_ALLOW_PROMPTS "hooray-allow-prompts"

static inline gboolean hooray_secret_service_prompts_allowed(SecretService *self) {
    return g_object_get_data(G_OBJECT(self), HOORAY_SECRET_ALLOW_PROMPTS) != NULL;
}

static inline void hooray_secret_service_allow_prompts(SecretService *self, gboolean allow) {
    g_object_set_data(G_OBJECT(self), HOORAY_SECRET_ALLOW_PROMPTS, allow ? GINT_TO_POINTER(1) : NULL);
}

#define HOORAY_SECRET_PROMPT_REFUSED "The keyring asked for a prompt, and Hooray prompts only when asked to unlock"

static inline GVariant *hooray_secret_prompt_refused(GError **error) {
    g_set_error_literal(error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED, HOORAY_SECRET_PROMPT_REFUSED);
    return NULL;
}

static inline GVariant *hooray_secret_service_prompt_sync(
    SecretService *self, SecretPrompt *prompt, GCancellable *cancellable, const GVariantType *return_type,
    GError **error) {
    if (!hooray_secret_service_prompts_allowed(self)) return hooray_secret_prompt_refused(error);
    SecretServiceClass *parent = (SecretServiceClass *)g_type_class_peek(SECRET_TYPE_SERVICE);
    return parent->prompt_sync(self, prompt, cancellable, return_type, error);
}

static inline void hooray_secret_service_prompt_async(
    SecretService *self, SecretPrompt *prompt, const GVariantType *return_type, GCancellable *cancellable,
    GAsyncReadyCallback callback, gpointer user_data) {
    if (!hooray_secret_service_prompts_allowed(self)) {
        GTask *task = g_task_new(self, cancellable, callback, user_data);
        g_task_set_source_tag(task, (gpointer)hooray_secret_service_prompt_async);
        g_task_return_new_error(task, SECRET_ERROR, SECRET_ERROR_IS_LOCKED, "%s", HOORAY_SECRET_PROMPT_REFUSED);
        g_object_unref(task);
        return;
    }
    SecretServiceClass *parent = (SecretServiceClass *)g_type_class_peek(SECRET_TYPE_SERVICE);
    parent->prompt_async(self, prompt, return_type, cancellable, callback, user_data);
}

static inline GVariant *hooray_secret_service_prompt_finish(SecretService *self, GAsyncResult *result, GError **error) {
    if (G_IS_TASK(result) && g_task_get_source_tag(G_TASK(result)) == (gpointer)hooray_secret_service_prompt_async)
        return (GVariant *)g_task_propagate_pointer(G_TASK(result), error);
    SecretServiceClass *parent = (SecretServiceClass *)g_type_class_peek(SECRET_TYPE_SERVICE);
    return parent->prompt_finish(self, result, error);
}

static inline GObject *hooray_secret_service_constructor(
    GType type, guint count, GObjectConstructParam *properties) {
    GObjectClass *parent = (GObjectClass *)g_type_class_peek(SECRET_TYPE_SERVICE);
    GObject *object = parent->constructor(type, count, properties);
    g_object_set(object, "g-bus-type", G_BUS_TYPE_NONE, NULL);
    return object;
}

static inline void hooray_secret_service_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->constructor = hooray_secret_service_constructor;
    SecretServiceClass *service = (SecretServiceClass *)klass;
    service->prompt_sync = hooray_secret_service_prompt_sync;
    service->prompt_async = hooray_secret_service_prompt_async;
    service->prompt_finish = hooray_secret_service_prompt_finish;
}

static inline GType hooray_secret_service_get_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        // Looked up by name first: each module that uses this header has its own copy of `type`.
        GType registered = g_type_from_name("HooraySecretService");
        if (registered == 0) {
            GTypeQuery query;
            g_type_query(SECRET_TYPE_SERVICE, &query);
            registered = g_type_register_static_simple(
                SECRET_TYPE_SERVICE, g_intern_static_string("HooraySecretService"), query.class_size,
                (GClassInitFunc)hooray_secret_service_class_init, query.instance_size, NULL, (GTypeFlags)0);
        }
        g_once_init_leave(&type, registered);
    }
    return type;
}

// Connects to the bus at `address` (a connection of our own, closed by the caller) and makes a
// Secret Service proxy on it. Returns NULL with `error` set when either fails; the proxy exists
// even when nothing owns the name (see g_dbus_proxy_get_name_owner).
static inline SecretService *hooray_secret_service_open(
    const char *address, SecretServiceFlags flags, GCancellable *cancellable, GDBusConnection **connection,
    GError **error) {
    *connection = g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, cancellable, error);
    if (*connection == NULL) return NULL;
    g_dbus_connection_set_exit_on_close(*connection, FALSE);
    return (SecretService *)g_initable_new(
        hooray_secret_service_get_type(), cancellable, error, "g-connection", *connection, "flags", flags, NULL);
}

// Closes a connection made by hooray_secret_service_open and drops our reference.
static inline void hooray_connection_close(GDBusConnection *connection) {
    if (connection == NULL) return;
    g_dbus_connection_close_sync(connection, NULL, NULL);
    g_object_unref(connection);
}

// The process id of a bus name's owner, or 0 (org.freedesktop.DBus.GetConnectionUnixProcessID).
static inline guint32 hooray_bus_name_owner_pid(
    GDBusConnection *connection, const char *name, gint timeout_msec, GCancellable *cancellable) {
    GVariant *reply = g_dbus_connection_call_sync(
        connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
        "GetConnectionUnixProcessID", g_variant_new("(s)", name), G_VARIANT_TYPE("(u)"), G_DBUS_CALL_FLAGS_NONE,
        timeout_msec, cancellable, NULL);
    if (reply == NULL) return 0;
    guint32 pid = 0;
    g_variant_get(reply, "(u)", &pid);
    g_variant_unref(reply);
    return pid;
}

// Whether something owns the bus name the proxy talks to: a running Secret Service.
static inline gboolean hooray_secret_service_has_owner(SecretService *service) {
    gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(service));
    gboolean has_owner = owner != NULL;
    g_free(owner);
    return has_owner;
}

// The D-Bus object path of an item or collection proxy.
static inline const char *hooray_proxy_object_path(gpointer proxy) {
    return g_dbus_proxy_get_object_path(G_DBUS_PROXY(proxy));
}

static inline gboolean hooray_error_is_cancelled(const GError *error) {
    return error != NULL && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static inline gboolean hooray_error_is_locked(const GError *error) {
    return error != NULL && g_error_matches(error, SECRET_ERROR, SECRET_ERROR_IS_LOCKED);
}

static inline gboolean hooray_error_is_dbus(const GError *error) {
    return error != NULL && error->domain == G_DBUS_ERROR;
}

static inline void hooray_object_list_free(GList *list) {
    g_list_free_full(list, g_object_unref);
}

// A one-element list for secret_service_unlock_sync.
static inline GList *hooray_list_of(gpointer object) {
    return g_list_append(NULL, object);
}

static inline void hooray_list_free(GList *list) {
    g_list_free(list);
}
#endif
