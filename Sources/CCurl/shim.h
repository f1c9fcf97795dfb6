#ifndef HOORAY_CCURL_SHIM_H
#define HOORAY_CCURL_SHIM_H
#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic; Swift needs typed entry points.
static inline CURLcode hooray_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode hooray_curl_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode hooray_curl_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode hooray_curl_setopt_write_function(CURL *curl, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, fn);
}
static inline CURLcode hooray_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
static inline CURLcode hooray_curl_setopt_xferinfo_function(
    CURL *curl, int (*fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, fn);
}
static inline CURLcode hooray_curl_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
// CURL_GLOBAL_DEFAULT is a macro Swift does not import.
static inline CURLcode hooray_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}
#endif
