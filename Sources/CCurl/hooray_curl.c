#include "hooray_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions Hooray calls, looked up once by hooray_curl_load.
struct hooray_functions {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
};
static struct hooray_functions functions;

// Set once libcurl is loaded and set up; read and written under `lock` only.
static int ready;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

// Looks up every function into `found`, writing why not into `why` when one is missing; `functions`
// is set only once all are found, so it never holds pointers into a library that was closed again.
static int find_all(void *library, struct hooray_functions *found, char *why, size_t size) {
    // dlsym hands back object pointers; POSIX guarantees they convert to function pointers.
#define HOORAY_FIND(field, name)                                                                  \
    found->field = (__typeof__(found->field))dlsym(library, name);                                \
    if (found->field == NULL) {                                                                \
        snprintf(why, size, "%s has no %s (it is too old)", HOORAY_CURL_LIBRARY, name);           \
        return 0;                                                                                 \
    }
    HOORAY_FIND(global_init, "curl_global_init")
    HOORAY_FIND(easy_init, "curl_easy_init")
    HOORAY_FIND(easy_cleanup, "curl_easy_cleanup")
    HOORAY_FIND(easy_setopt, "curl_easy_setopt")
    HOORAY_FIND(easy_getinfo, "curl_easy_getinfo")
    HOORAY_FIND(easy_perform, "curl_easy_perform")
    HOORAY_FIND(easy_strerror, "curl_easy_strerror")
    HOORAY_FIND(slist_append, "curl_slist_append")
    HOORAY_FIND(slist_free_all, "curl_slist_free_all")
#undef HOORAY_FIND
    return 1;
}

// One attempt; called under `lock` until one succeeds, so that libcurl installed while hoorayd
// runs is found at the next request.
static int load(char *why, size_t size) {
    void *library = dlopen(HOORAY_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(why, size, "%s", reason != NULL ? reason : HOORAY_CURL_LIBRARY " could not be loaded");
        return 0;
    }
    struct hooray_functions found;
    if (!find_all(library, &found, why, size)) {
        dlclose(library);
        return 0;
    }
    // libcurl's process-wide setup, before the first transfer; it is not thread-safe itself.
    CURLcode code = found.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(why, size, "curl_global_init failed with code %d", (int)code);
        dlclose(library);
        return 0;
    }
    // Kept loaded for the life of the process.
    functions = found;
    return 1;
}

int hooray_curl_load(char *why, size_t size) {
    pthread_mutex_lock(&lock);
    if (!ready) ready = load(why, size);
    int loaded = ready;
    pthread_mutex_unlock(&lock);
    return loaded;
}

CURL *hooray_curl_easy_init(void) { return functions.easy_init(); }
void hooray_curl_easy_cleanup(CURL *curl) { functions.easy_cleanup(curl); }
CURLcode hooray_curl_easy_perform(CURL *curl) { return functions.easy_perform(curl); }
const char *hooray_curl_easy_strerror(CURLcode code) { return functions.easy_strerror(code); }

struct curl_slist *hooray_curl_slist_append(struct curl_slist *list, const char *text) {
    return functions.slist_append(list, text);
}

void hooray_curl_slist_free_all(struct curl_slist *list) { functions.slist_free_all(list); }

CURLcode hooray_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return functions.easy_setopt(curl, option, value);
}

CURLcode hooray_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return functions.easy_setopt(curl, option, value);
}

CURLcode hooray_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return functions.easy_setopt(curl, option, value);
}

CURLcode hooray_curl_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value) {
    return functions.easy_setopt(curl, option, value);
}

CURLcode hooray_curl_setopt_write_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *)) {
    return functions.easy_setopt(curl, CURLOPT_WRITEFUNCTION, function);
}

CURLcode hooray_curl_setopt_xferinfo_function(
    CURL *curl, int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return functions.easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode hooray_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return functions.easy_getinfo(curl, info, value);
}
