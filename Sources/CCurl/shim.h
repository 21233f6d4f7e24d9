// Typed, non-variadic access to libcurl for Swift: one wrapper per argument type of curl_easy_setopt and friends.
#ifndef ISOBAR_CCURL_SHIM_H
#define ISOBAR_CCURL_SHIM_H

#include <curl/curl.h>

/// A body or header callback: (bytes, size, count, user data) -> bytes taken.
typedef size_t (*isobar_curl_data_callback)(char *bytes, size_t size, size_t count, void *user);

static inline CURLcode isobar_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_set_callback(CURL *handle, CURLoption option, isobar_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode isobar_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode isobar_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode isobar_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode isobar_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
/// The easy handle and result of a finished transfer message; returns 0 when the message is not "done".
static inline int isobar_curl_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

#endif
