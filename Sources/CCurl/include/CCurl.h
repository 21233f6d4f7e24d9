// Typed, non-variadic access to libcurl for Swift, with libcurl loaded lazily through dlopen("libcurl.so.4").
//
// The binary does not link libcurl: <curl/curl.h> is included for its types and constants only (build-time package
// libcurl4-openssl-dev; the runtime needs libcurl4). Swift must call only the isobar_curl_… functions below, never the
// curl_… declarations the header also brings in. Call isobar_curl_load first; until it has returned 1 every wrapper
// fails softly (an error code or NULL), it never crashes.
#ifndef ISOBAR_CCURL_H
#define ISOBAR_CCURL_H

#include <stddef.h>
#include <curl/curl.h>

/// A body or header callback: (bytes, size, count, user data) -> bytes taken.
typedef size_t (*isobar_curl_data_callback)(char *bytes, size_t size, size_t count, void *user);

/// Loads libcurl.so.4 and resolves every function used, once per process (thread-safe). Returns 1 when libcurl is
/// usable; otherwise 0, with a one-line reason written to `error` (NUL-terminated, at most `size` bytes) when given.
int isobar_curl_load(char *error, size_t size);

CURLcode isobar_curl_global_init(long flags);
/// 1 when the loaded libcurl can speak HTTP/2 (built with nghttp2), else 0 (also before a successful load).
int isobar_curl_supports_http2(void);

CURL *isobar_curl_easy_init(void);
void isobar_curl_easy_cleanup(CURL *handle);
/// libcurl's generic text for a code; never NULL.
const char *isobar_curl_easy_strerror(CURLcode code);

CURLcode isobar_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode isobar_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode isobar_curl_set_string(CURL *handle, CURLoption option, const char *value);
CURLcode isobar_curl_set_pointer(CURL *handle, CURLoption option, void *value);
CURLcode isobar_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode isobar_curl_set_callback(CURL *handle, CURLoption option, isobar_curl_data_callback value);
CURLcode isobar_curl_get_long(CURL *handle, CURLINFO info, long *value);
CURLcode isobar_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);

/// Returns NULL when the string cannot be appended (or libcurl is not loaded); `list` is then left as it was.
struct curl_slist *isobar_curl_slist_append(struct curl_slist *list, const char *string);
void isobar_curl_slist_free_all(struct curl_slist *list);

CURLM *isobar_curl_multi_init(void);
CURLMcode isobar_curl_multi_cleanup(CURLM *multi);
CURLMcode isobar_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);
CURLMcode isobar_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode isobar_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMsg *isobar_curl_multi_info_read(CURLM *multi, int *remaining);

/// An epoll loop driving a multi handle through curl_multi_socket_action; used by one thread, except `wake`.
typedef struct isobar_curl_loop isobar_curl_loop;
/// Installs the loop's socket and timer callbacks on `multi`; NULL when libcurl is not loaded or the kernel refuses.
isobar_curl_loop *isobar_curl_loop_create(CURLM *multi);
/// Takes the loop's callbacks off its multi handle (call before curl_multi_cleanup when the loop goes first).
void isobar_curl_loop_detach(isobar_curl_loop *loop);
/// Frees the loop; its multi handle must be cleaned up before, or detached from it.
void isobar_curl_loop_destroy(isobar_curl_loop *loop);
/// Makes a waiting `isobar_curl_loop_run` return at once; safe from any thread. 0 on success.
int isobar_curl_loop_wake(isobar_curl_loop *loop);
/// Waits at most `max_wait_ms` (less when libcurl's next timeout is sooner) for a socket to be ready or a wake-up, then lets
/// libcurl act on each ready socket and on its due timeouts. Returns the number of events, or -1 on failure.
int isobar_curl_loop_run(isobar_curl_loop *loop, int max_wait_ms);
/// Makes the next `count` socket registrations of every loop fail as if the epoll set had no room (tests).
void isobar_curl_loop_refuse_watches_for_tests(int count);

/// The easy handle and result of a finished transfer message; returns 0 when the message is not "done".
int isobar_curl_message_done(CURLMsg *message, CURL **handle, CURLcode *result);

#endif
