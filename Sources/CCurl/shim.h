#ifndef LAUNCHAD_CURL_SHIM_H
#define LAUNCHAD_CURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift cannot call them, so each
   argument type gets a typed, prefixed wrapper. */
typedef size_t (*launchad_curl_data_fn)(char *data, size_t size, size_t count, void *context);

typedef int (*launchad_curl_progress_fn)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

typedef curl_socket_t (*launchad_curl_opensocket_fn)(void *context, curlsocktype purpose, struct curl_sockaddr *address);

static inline CURLcode launchad_curl_set_opensocket_fn(CURL *h, launchad_curl_opensocket_fn f) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
static inline curl_socket_t launchad_curl_socket_bad(void) { return CURL_SOCKET_BAD; }
/* The address curl is about to connect to starts at this offset in struct curl_sockaddr (room for IPv6 follows). */
static inline const struct sockaddr *launchad_curl_sockaddr(const struct curl_sockaddr *a) { return &a->addr; }
static inline CURLcode launchad_curl_set_progress_fn(CURL *h, launchad_curl_progress_fn f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
static inline CURLcode launchad_curl_set_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_list(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode launchad_curl_set_data_fn(CURL *h, CURLoption o, launchad_curl_data_fn f) { return curl_easy_setopt(h, o, f); }
static inline CURLcode launchad_curl_get_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode launchad_curl_get_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode launchad_curl_get_size(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
/* CURLVERSION_NOW is a macro naming the newest struct layout these headers know. */
static inline curl_version_info_data *launchad_curl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }

#endif
