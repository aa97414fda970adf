#ifndef LAUNCHAD_CURL_SHIM_H
#define LAUNCHAD_CURL_SHIM_H
/* curl_easy_setopt and curl_easy_getinfo are table fields here; gcc's type-checking macros of
   the same names (package.sh's stub is built by gcc) would rewrite them. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include "../CLazyLoad/lazy_load.h"

/* libcurl is opened on first use (Sources/CLazyLoad/lazy_load.h says why): a local `play` never
   needs it. Swift calls libcurl.curl_easy_init() and so on; curl_easy_setopt and curl_easy_getinfo
   are variadic, which Swift cannot call, so only the typed wrappers below use them. */
#define LAUNCHAD_LIBCURL(F) \
    F(curl_easy_cleanup) \
    F(curl_easy_init) \
    F(curl_easy_perform) \
    F(curl_easy_strerror) \
    F(curl_global_init) \
    F(curl_slist_append) \
    F(curl_slist_free_all) \
    F(curl_version_info)
LAUNCHAD_LAZY_LIBRARY(libcurl, "libcurl.so.4", LAUNCHAD_LIBCURL)
#define LAUNCHAD_LIBCURL_VARIADIC(F) \
    F(curl_easy_setopt) \
    F(curl_easy_getinfo)
LAUNCHAD_LAZY_LIBRARY(libcurl_variadic, "libcurl.so.4", LAUNCHAD_LIBCURL_VARIADIC)

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each
   argument type gets a typed, prefixed wrapper. */
typedef size_t (*launchad_curl_data_fn)(char *data, size_t size, size_t count, void *context);

typedef int (*launchad_curl_progress_fn)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

typedef curl_socket_t (*launchad_curl_opensocket_fn)(void *context, curlsocktype purpose, struct curl_sockaddr *address);

static inline CURLcode launchad_curl_set_opensocket_fn(CURL *h, launchad_curl_opensocket_fn f) { return launchad_libcurl_variadic()->curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline curl_socket_t launchad_curl_socket_bad(void) { return CURL_SOCKET_BAD; }
/* The address curl is about to connect to starts at this offset in struct curl_sockaddr (room for IPv6 follows). */
static inline const struct sockaddr *launchad_curl_sockaddr(const struct curl_sockaddr *a) { return &a->addr; }
static inline CURLcode launchad_curl_set_progress_fn(CURL *h, launchad_curl_progress_fn f) { return launchad_libcurl_variadic()->curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode launchad_curl_set_long(CURL *h, CURLoption o, long v) { return launchad_libcurl_variadic()->curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_string(CURL *h, CURLoption o, const char *v) { return launchad_libcurl_variadic()->curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_pointer(CURL *h, CURLoption o, void *v) { return launchad_libcurl_variadic()->curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_list(CURL *h, CURLoption o, struct curl_slist *v) { return launchad_libcurl_variadic()->curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_data_fn(CURL *h, CURLoption o, launchad_curl_data_fn f) { return launchad_libcurl_variadic()->curl_easy_setopt(h, o, f); }
static inline CURLcode launchad_curl_get_long(CURL *h, CURLINFO i, long *v) { return launchad_libcurl_variadic()->curl_easy_getinfo(h, i, v); }
static inline CURLcode launchad_curl_get_string(CURL *h, CURLINFO i, char **v) { return launchad_libcurl_variadic()->curl_easy_getinfo(h, i, v); }
static inline CURLcode launchad_curl_get_size(CURL *h, CURLINFO i, curl_off_t *v) { return launchad_libcurl_variadic()->curl_easy_getinfo(h, i, v); }
/* CURLVERSION_NOW is a macro naming the newest struct layout these headers know. */
static inline curl_version_info_data *launchad_curl_version_info(void) { return launchad_libcurl()->curl_version_info(CURLVERSION_NOW); }

#endif
