#include "hooray_curl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// The functions Hooray calls, looked up once by hooray_curl_load.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *curl);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} functions;

static char failure[512];
static int ready;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int find(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot != NULL) return 1;
    snprintf(failure, sizeof failure, "%s has no %s (it is too old)", HOORAY_CURL_LIBRARY, name);
    return 0;
}

static void load(void) {
    void *library = dlopen(HOORAY_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason != NULL ? reason : HOORAY_CURL_LIBRARY " could not be loaded");
        return;
    }
    // dlsym hands back object pointers; POSIX guarantees they convert to function pointers.
    if (!find(library, (void **)&functions.global_init, "curl_global_init")
        || !find(library, (void **)&functions.easy_init, "curl_easy_init")
        || !find(library, (void **)&functions.easy_cleanup, "curl_easy_cleanup")
        || !find(library, (void **)&functions.easy_setopt, "curl_easy_setopt")
        || !find(library, (void **)&functions.easy_getinfo, "curl_easy_getinfo")
        || !find(library, (void **)&functions.easy_perform, "curl_easy_perform")
        || !find(library, (void **)&functions.easy_strerror, "curl_easy_strerror")
        || !find(library, (void **)&functions.slist_append, "curl_slist_append")
        || !find(library, (void **)&functions.slist_free_all, "curl_slist_free_all"))
        return;
    // libcurl's process-wide setup, before the first transfer; it is not thread-safe itself.
    CURLcode code = functions.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure, sizeof failure, "curl_global_init failed with code %d", (int)code);
        return;
    }
    ready = 1;
}

const char *hooray_curl_load(void) {
    pthread_once(&once, load);
    return ready ? NULL : failure;
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
