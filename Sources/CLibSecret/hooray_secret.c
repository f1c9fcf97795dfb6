#include "hooray_secret.h"

#include <dlfcn.h>
// libsecret-1-dev's header, through the symbolic link beside this file (Package.swift says why).
#include <libsecret/secret.h>
#include <pthread.h>
#include <stdio.h>

// The functions Hooray calls, looked up once by hooray_secret_load. libsecret's macros that call
// its functions (SECRET_TYPE_SERVICE, SECRET_ERROR) are not used here: they would link it.
struct hooray_functions {
    GType (*service_get_type)(void);
    GQuark (*error_get_quark)(void);
    gboolean (*service_ensure_session_sync)(SecretService *, GCancellable *, GError **);
    SecretCollection *(*collection_for_alias_sync)(
        SecretService *, const gchar *, SecretCollectionFlags, GCancellable *, GError **);
    gint (*service_unlock_sync)(SecretService *, GList *, GCancellable *, GList **, GError **);
    GList *(*service_search_sync)(
        SecretService *, const SecretSchema *, GHashTable *, SecretSearchFlags, GCancellable *, GError **);
    SecretItem *(*item_create_sync)(
        SecretCollection *, const SecretSchema *, GHashTable *, const gchar *, SecretValue *, SecretItemCreateFlags,
        GCancellable *, GError **);
    gboolean (*item_delete_sync)(SecretItem *, GCancellable *, GError **);
    gboolean (*item_get_locked)(SecretItem *);
    gboolean (*collection_get_locked)(SecretCollection *);
    SecretValue *(*item_get_secret)(SecretItem *);
    SecretValue *(*value_new)(const gchar *, gssize, const gchar *);
    const gchar *(*value_get_text)(SecretValue *);
    void (*value_unref)(gpointer);
};
static struct hooray_functions functions;

// Set once libsecret is loaded; read and written under `lock` only.
static int ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// Looks up every function into `found`, writing why not into `why` when one is missing; `functions`
// is set only once all are found, so it never holds pointers into a library that was closed again.
static int find_all(void *library, struct hooray_functions *found, char *why, size_t size) {
    // dlsym hands back object pointers; POSIX guarantees they convert to function pointers.
#define HOORAY_FIND(field, name)                                                                  \
    found->field = (__typeof__(found->field))dlsym(library, name);                                \
    if (found->field == NULL) {                                                                \
        snprintf(why, size, "%s has no %s (it is too old)", HOORAY_SECRET_LIBRARY, name);         \
        return 0;                                                                                 \
    }
    HOORAY_FIND(service_get_type, "secret_service_get_type")
    HOORAY_FIND(error_get_quark, "secret_error_get_quark")
    HOORAY_FIND(service_ensure_session_sync, "secret_service_ensure_session_sync")
    HOORAY_FIND(collection_for_alias_sync, "secret_collection_for_alias_sync")
    HOORAY_FIND(service_unlock_sync, "secret_service_unlock_sync")
    HOORAY_FIND(service_search_sync, "secret_service_search_sync")
    HOORAY_FIND(item_create_sync, "secret_item_create_sync")
    HOORAY_FIND(item_delete_sync, "secret_item_delete_sync")
    HOORAY_FIND(item_get_locked, "secret_item_get_locked")
    HOORAY_FIND(collection_get_locked, "secret_collection_get_locked")
    HOORAY_FIND(item_get_secret, "secret_item_get_secret")
    HOORAY_FIND(value_new, "secret_value_new")
    HOORAY_FIND(value_get_text, "secret_value_get_text")
    HOORAY_FIND(value_unref, "secret_value_unref")
#undef HOORAY_FIND
    return 1;
}

// One attempt; called under `lock` until one succeeds, so that libsecret installed while hoorayd
// runs is found at the next keyring operation.
static int load(char *why, size_t size) {
    void *library = dlopen(HOORAY_SECRET_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(why, size, "%s", reason != NULL ? reason : HOORAY_SECRET_LIBRARY " could not be loaded");
        return 0;
    }
    struct hooray_functions found;
    if (!find_all(library, &found, why, size)) {
        dlclose(library);
        return 0;
    }
    // Kept loaded for the life of the process: it registers GTypes, which cannot be unloaded.
    functions = found;
    return 1;
}

int hooray_secret_load(char *why, size_t size) {
    pthread_mutex_lock(&lock);
    if (!ready) ready = load(why, size);
    int loaded = ready;
    pthread_mutex_unlock(&lock);
    return loaded;
}

// MARK: The subclass

static const SecretSchema schema = {
    "org.hooray.Secret",
    SECRET_SCHEMA_NONE,
    {
        {"kind", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {"provider", SECRET_SCHEMA_ATTRIBUTE_STRING},
        {NULL, 0},
    },
};

// Attributes for a search or a new item; `provider` may be NULL. Free with g_hash_table_unref.
static GHashTable *attributes(const char *kind, const char *provider) {
    GHashTable *table = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(table, g_strdup("kind"), g_strdup(kind));
    if (provider != NULL) g_hash_table_insert(table, g_strdup("provider"), g_strdup(provider));
    return table;
}

#define HOORAY_SECRET_ALLOW_PROMPTS "hooray-allow-prompts"
#define HOORAY_SECRET_PROMPT_REFUSED "The keyring asked for a prompt, and Hooray prompts only when asked to unlock"

static gboolean prompts_allowed(SecretService *self) {
    return g_object_get_data(G_OBJECT(self), HOORAY_SECRET_ALLOW_PROMPTS) != NULL;
}

void hooray_secret_service_allow_prompts(SecretService *self, gboolean allow) {
    g_object_set_data(G_OBJECT(self), HOORAY_SECRET_ALLOW_PROMPTS, allow ? GINT_TO_POINTER(1) : NULL);
}

static SecretServiceClass *parent_class(void) {
    return (SecretServiceClass *)g_type_class_peek(functions.service_get_type());
}

static GVariant *prompt_sync(
    SecretService *self, SecretPrompt *prompt, GCancellable *cancellable, const GVariantType *return_type,
    GError **error) {
    if (!prompts_allowed(self)) {
        g_set_error_literal(error, functions.error_get_quark(), SECRET_ERROR_IS_LOCKED, HOORAY_SECRET_PROMPT_REFUSED);
        return NULL;
    }
    return parent_class()->prompt_sync(self, prompt, cancellable, return_type, error);
}

static void prompt_async(
    SecretService *self, SecretPrompt *prompt, const GVariantType *return_type, GCancellable *cancellable,
    GAsyncReadyCallback callback, gpointer user_data) {
    if (!prompts_allowed(self)) {
        GTask *task = g_task_new(self, cancellable, callback, user_data);
        g_task_set_source_tag(task, (gpointer)prompt_async);
        g_task_return_new_error(
            task, functions.error_get_quark(), SECRET_ERROR_IS_LOCKED, "%s", HOORAY_SECRET_PROMPT_REFUSED);
        g_object_unref(task);
        return;
    }
    parent_class()->prompt_async(self, prompt, return_type, cancellable, callback, user_data);
}

static GVariant *prompt_finish(SecretService *self, GAsyncResult *result, GError **error) {
    if (G_IS_TASK(result) && g_task_get_source_tag(G_TASK(result)) == (gpointer)prompt_async)
        return (GVariant *)g_task_propagate_pointer(G_TASK(result), error);
    return parent_class()->prompt_finish(self, result, error);
}

static GObject *constructor(GType type, guint count, GObjectConstructParam *properties) {
    GObjectClass *parent = (GObjectClass *)g_type_class_peek(functions.service_get_type());
    GObject *object = parent->constructor(type, count, properties);
    g_object_set(object, "g-bus-type", G_BUS_TYPE_NONE, NULL);
    return object;
}

static void class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->constructor = constructor;
    SecretServiceClass *service = (SecretServiceClass *)klass;
    service->prompt_sync = prompt_sync;
    service->prompt_async = prompt_async;
    service->prompt_finish = prompt_finish;
}

static GType service_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GTypeQuery query;
        g_type_query(functions.service_get_type(), &query);
        GType registered = g_type_register_static_simple(
            functions.service_get_type(), g_intern_static_string("HooraySecretService"), query.class_size,
            (GClassInitFunc)class_init, query.instance_size, NULL, (GTypeFlags)0);
        g_once_init_leave(&type, registered);
    }
    return type;
}

SecretService *hooray_secret_service_open(
    const char *address, GCancellable *cancellable, GDBusConnection **connection, GError **error) {
    *connection = g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, cancellable, error);
    if (*connection == NULL) return NULL;
    g_dbus_connection_set_exit_on_close(*connection, FALSE);
    return (SecretService *)g_initable_new(
        service_type(), cancellable, error, "g-connection", *connection, "flags", SECRET_SERVICE_NONE, NULL);
}

gboolean hooray_secret_service_has_owner(SecretService *service) {
    gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(service));
    gboolean has_owner = owner != NULL;
    g_free(owner);
    return has_owner;
}

// MARK: libsecret's calls

gboolean hooray_secret_service_ensure_session(SecretService *service, GCancellable *cancellable, GError **error) {
    return functions.service_ensure_session_sync(service, cancellable, error);
}

SecretCollection *hooray_secret_default_collection(
    SecretService *service, GCancellable *cancellable, GError **error) {
    return functions.collection_for_alias_sync(
        service, SECRET_COLLECTION_DEFAULT, SECRET_COLLECTION_NONE, cancellable, error);
}

gint hooray_secret_service_unlock(
    SecretService *service, GList *objects, GCancellable *cancellable, GList **unlocked, GError **error) {
    return functions.service_unlock_sync(service, objects, cancellable, unlocked, error);
}

GList *hooray_secret_search(
    SecretService *service, const char *kind, const char *provider, gboolean load_secrets,
    GCancellable *cancellable, GError **error) {
    GHashTable *table = attributes(kind, provider);
    SecretSearchFlags flags = SECRET_SEARCH_ALL;
    if (load_secrets) flags |= SECRET_SEARCH_LOAD_SECRETS;
    GList *found = functions.service_search_sync(service, &schema, table, flags, cancellable, error);
    g_hash_table_unref(table);
    return found;
}

SecretItem *hooray_secret_item_create(
    SecretCollection *collection, const char *kind, const char *provider, const char *label, const char *text,
    GCancellable *cancellable, GError **error) {
    GHashTable *table = attributes(kind, provider);
    SecretValue *value = functions.value_new(text, -1, "text/plain");
    SecretItem *item = functions.item_create_sync(
        collection, &schema, table, label, value, SECRET_ITEM_CREATE_REPLACE, cancellable, error);
    functions.value_unref(value);
    g_hash_table_unref(table);
    return item;
}

gboolean hooray_secret_item_delete(SecretItem *item, GCancellable *cancellable, GError **error) {
    return functions.item_delete_sync(item, cancellable, error);
}

gboolean hooray_secret_item_is_locked(SecretItem *item) { return functions.item_get_locked(item); }

gboolean hooray_secret_collection_is_locked(SecretCollection *collection) {
    return functions.collection_get_locked(collection);
}

SecretValue *hooray_secret_item_get_secret(SecretItem *item) { return functions.item_get_secret(item); }
const char *hooray_secret_value_get_text(SecretValue *value) { return functions.value_get_text(value); }
void hooray_secret_value_unref(SecretValue *value) { functions.value_unref(value); }

const char *hooray_proxy_object_path(gpointer proxy) { return g_dbus_proxy_get_object_path(G_DBUS_PROXY(proxy)); }

gboolean hooray_error_is_cancelled(const GError *error) {
    return error != NULL && g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

gboolean hooray_error_is_locked(const GError *error) {
    return error != NULL && g_error_matches(error, functions.error_get_quark(), SECRET_ERROR_IS_LOCKED);
}

gboolean hooray_error_is_dbus(const GError *error) { return error != NULL && error->domain == G_DBUS_ERROR; }

// MARK: GIO and GLib

void hooray_connection_close(GDBusConnection *connection) {
    if (connection == NULL) return;
    g_dbus_connection_close_sync(connection, NULL, NULL);
    g_object_unref(connection);
}

guint32 hooray_bus_name_owner_pid(
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

void hooray_object_list_free(GList *list) { g_list_free_full(list, g_object_unref); }
GList *hooray_list_of(gpointer object) { return g_list_append(NULL, object); }
void hooray_list_free(GList *list) { g_list_free(list); }
