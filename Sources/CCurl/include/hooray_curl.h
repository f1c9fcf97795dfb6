#ifndef HOORAY_CCURL_H
#define HOORAY_CCURL_H
// libcurl, loaded with dlopen when the first AI request is made instead of linked.
//
// A process that never talks to an AI service (hoorayd with offline praise, every `hooray` command
// but a few) then maps none of libcurl and the libraries it pulls in (OpenSSL, GnuTLS, Kerberos,
// LDAP, SSH, nghttp2 …) and binds none of their symbols at start. The declarations and constants
// are still libcurl's own, from its header; only the calls go through the table below.
#include <curl/curl.h>

// The file name of Debian's libcurl4 package (the OpenSSL flavour Hooray is built against).
#define HOORAY_CURL_LIBRARY "libcurl.so.4"

#include <stddef.h>

// Loads libcurl and runs curl_global_init, once it succeeds (thread-safe; a failure is tried
// again at the next call, so libcurl installed meanwhile is found). Returns 1 when libcurl is
// ready; otherwise 0, with why not in `why` (at most `size` bytes, terminated), such as the
// loader's "libcurl.so.4: cannot open shared object file: No such file or directory".
int hooray_curl_load(char *why, size_t size);

// libcurl's functions, each valid once hooray_curl_load returned 1.
CURL *hooray_curl_easy_init(void);
void hooray_curl_easy_cleanup(CURL *curl);
CURLcode hooray_curl_easy_perform(CURL *curl);
const char *hooray_curl_easy_strerror(CURLcode code);
struct curl_slist *hooray_curl_slist_append(struct curl_slist *list, const char *text);
void hooray_curl_slist_free_all(struct curl_slist *list);

// curl_easy_setopt and curl_easy_getinfo are variadic; Swift needs typed entry points.
CURLcode hooray_curl_setopt_long(CURL *curl, CURLoption option, long value);
CURLcode hooray_curl_setopt_string(CURL *curl, CURLoption option, const char *value);
CURLcode hooray_curl_setopt_pointer(CURL *curl, CURLoption option, void *value);
CURLcode hooray_curl_setopt_off_t(CURL *curl, CURLoption option, curl_off_t value);
CURLcode hooray_curl_setopt_write_function(CURL *curl, size_t (*function)(char *, size_t, size_t, void *));
CURLcode hooray_curl_setopt_xferinfo_function(
    CURL *curl, int (*function)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
CURLcode hooray_curl_getinfo_long(CURL *curl, CURLINFO info, long *value);
#endif
