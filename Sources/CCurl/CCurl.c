// Loads libcurl on first use with dlopen, so that programs linking this target pay for libcurl and its ~40 dependent
// libraries (TLS, Kerberos, LDAP, ...) only when they actually send a request.
#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef ISOBAR_CURL_SONAME
#define ISOBAR_CURL_SONAME "libcurl.so.4"
#endif

/// The oldest libcurl that has everything used (CURLOPT_PROTOCOLS_STR arrived in 7.85.0).
#define ISOBAR_CURL_MINIMUM 0x075500
#define ISOBAR_CURL_MINIMUM_TEXT "7.85.0"

/// Every libcurl function used, resolved once by name.
static struct {
    CURLcode (*global_init)(long flags);
    curl_version_info_data *(*version_info)(CURLversion age);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *remaining);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/// Written once inside load_library, read only after pthread_once has returned.
static int loaded;
static char load_error[256];

/// Resolves `name` into `*slot`; returns 0 (and records why) when the library lacks it.
static int resolve(void *library, const char *name, void **slot) {
    dlerror();
    *slot = dlsym(library, name);
    if (*slot == NULL) {
        snprintf(load_error, sizeof load_error, ISOBAR_CURL_SONAME " lacks %s: install libcurl4 " ISOBAR_CURL_MINIMUM_TEXT
                 " or later", name);
        return 0;
    }
    return 1;
}

static void load_library(void) {
    void *library = dlopen(ISOBAR_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        // "libcurl.so.4: cannot open shared object file: ..." means libcurl itself is missing; anything else (a missing
        // dependency, a wrong architecture) is passed on as dlerror tells it.
        if (reason == NULL || (strncmp(reason, ISOBAR_CURL_SONAME ":", strlen(ISOBAR_CURL_SONAME ":")) == 0
                               && strstr(reason, "cannot open shared object") != NULL)) {
            snprintf(load_error, sizeof load_error, ISOBAR_CURL_SONAME " not found: install libcurl4");
        } else {
            snprintf(load_error, sizeof load_error, "cannot load " ISOBAR_CURL_SONAME ": %s", reason);
        }
        for (char *c = load_error; *c; c++) if (*c == '\n' || *c == '\r') *c = ' ';
        return;
    }
    // The casts from void * to function pointers are what POSIX guarantees for dlsym.
#define RESOLVE(field, name) if (!resolve(library, name, (void **)&curl.field)) goto missing
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(version_info, "curl_version_info");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(multi_info_read, "curl_multi_info_read");
#undef RESOLVE
    const curl_version_info_data *version = curl.version_info(CURLVERSION_NOW);
    if (version == NULL || version->version_num < ISOBAR_CURL_MINIMUM) {
        snprintf(load_error, sizeof load_error, "libcurl %s is too old: install libcurl4 " ISOBAR_CURL_MINIMUM_TEXT " or later",
                 version != NULL && version->version != NULL ? version->version : "(unknown version)");
        goto missing;
    }
    loaded = 1;
    return;
missing:
    // Keep the library mapped (it may be in use elsewhere in the process) but never call into it.
    memset(&curl, 0, sizeof curl);
}

/// 1 once libcurl is usable; the wrappers below check it so that a call before (or without) a successful load fails
/// softly instead of jumping through a null pointer.
static inline int ready(void) {
    pthread_once(&load_once, load_library);
    return loaded;
}

int isobar_curl_load(char *error, size_t size) {
    if (ready()) return 1;
    if (error != NULL && size > 0) snprintf(error, size, "%s", load_error);
    return 0;
}

CURLcode isobar_curl_global_init(long flags) {
    return ready() ? curl.global_init(flags) : CURLE_FAILED_INIT;
}

int isobar_curl_supports_http2(void) {
    if (!ready()) return 0;
    const curl_version_info_data *version = curl.version_info(CURLVERSION_NOW);
    return version != NULL && (version->features & CURL_VERSION_HTTP2) != 0;
}

CURL *isobar_curl_easy_init(void) {
    return ready() ? curl.easy_init() : NULL;
}
void isobar_curl_easy_cleanup(CURL *handle) {
    if (ready()) curl.easy_cleanup(handle);
}
const char *isobar_curl_easy_strerror(CURLcode code) {
    const char *text = ready() ? curl.easy_strerror(code) : NULL;
    return text != NULL ? text : "libcurl is not loaded";
}

CURLcode isobar_curl_set_long(CURL *handle, CURLoption option, long value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_set_callback(CURL *handle, CURLoption option, isobar_curl_data_callback value) {
    return ready() ? curl.easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}
CURLcode isobar_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return ready() ? curl.easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

struct curl_slist *isobar_curl_slist_append(struct curl_slist *list, const char *string) {
    return ready() ? curl.slist_append(list, string) : NULL;
}
void isobar_curl_slist_free_all(struct curl_slist *list) {
    if (ready()) curl.slist_free_all(list);
}

CURLM *isobar_curl_multi_init(void) {
    return ready() ? curl.multi_init() : NULL;
}
CURLMcode isobar_curl_multi_cleanup(CURLM *multi) {
    return ready() ? curl.multi_cleanup(multi) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return ready() ? curl.multi_setopt(multi, option, value) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return ready() ? curl.multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_perform(CURLM *multi, int *running) {
    return ready() ? curl.multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int timeout_ms, int *ready_count) {
    return ready() ? curl.multi_poll(multi, extra, count, timeout_ms, ready_count) : CURLM_INTERNAL_ERROR;
}
CURLMcode isobar_curl_multi_wakeup(CURLM *multi) {
    return ready() ? curl.multi_wakeup(multi) : CURLM_INTERNAL_ERROR;
}
CURLMsg *isobar_curl_multi_info_read(CURLM *multi, int *remaining) {
    return ready() ? curl.multi_info_read(multi, remaining) : NULL;
}

int isobar_curl_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}
