// Loads libcurl on first use with dlopen, so that programs linking this target pay for libcurl and its ~40 dependent
// libraries (TLS, Kerberos, LDAP, ...) only when they actually send a request.
#include "CCurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
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
    CURLMsg *(*multi_info_read)(CURLM *multi, int *remaining);
    CURLMcode (*multi_socket_action)(CURLM *multi, curl_socket_t socket, int events, int *running);
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
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_socket_action, "curl_multi_socket_action");
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
CURLMsg *isobar_curl_multi_info_read(CURLM *multi, int *remaining) {
    return ready() ? curl.multi_info_read(multi, remaining) : NULL;
}

int isobar_curl_message_done(CURLMsg *message, CURL **handle, CURLcode *result) {
    if (message == NULL || message->msg != CURLMSG_DONE) return 0;
    *handle = message->easy_handle;
    *result = message->data.result;
    return 1;
}

// MARK: The event loop: epoll over the sockets libcurl names, so that a wake-up runs only the transfers whose sockets are
// ready (curl_multi_socket_action) instead of every transfer in flight (curl_multi_perform, which polls each one's socket).

/// The epoll data of the wake-up eventfd; a socket's data is its descriptor and the directions libcurl asked for.
#define ISOBAR_LOOP_WAKE_TAG UINT64_MAX
/// Sockets the loop can drive without epoll when the set refuses them.
#define ISOBAR_LOOP_MAX_UNWATCHED 256

struct isobar_curl_loop {
    CURLM *multi;
    int epoll;
    int wake;
    /// When libcurl wants curl_multi_socket_action(CURL_SOCKET_TIMEOUT), in CLOCK_MONOTONIC milliseconds; -1 for never.
    long long timer_due;
    /// Which descriptors are in the epoll set (one byte each, by number), so that each change is one epoll_ctl call.
    unsigned char *registered;
    size_t registered_count;
    /// Sockets the epoll set refused (no memory, or the per-user watch limit): each wake-up, at most 10 ms apart while
    /// there are any, hands them to libcurl in the directions it waits on, so that their transfers go on instead of
    /// stalling until their timeouts (a failing socket callback would end every transfer of the multi handle).
    struct { curl_socket_t socket; int what; } unwatched[ISOBAR_LOOP_MAX_UNWATCHED];
    int unwatched_count;
};

/// Registrations still to refuse as if the epoll set had no room (tests of the fallback).
static atomic_int refused_watches_for_tests;

void isobar_curl_loop_refuse_watches_for_tests(int count) { atomic_store(&refused_watches_for_tests, count); }

/// Forgets `socket` as unwatched.
static void loop_forget_unwatched(isobar_curl_loop *loop, curl_socket_t socket) {
    for (int index = 0; index < loop->unwatched_count; index++) {
        if (loop->unwatched[index].socket != socket) continue;
        loop->unwatched[index] = loop->unwatched[--loop->unwatched_count];
        return;
    }
}

/// Keeps `socket` as unwatched with the directions `what`; 0 when there is no room left either.
static int loop_keep_unwatched(isobar_curl_loop *loop, curl_socket_t socket, int what) {
    loop_forget_unwatched(loop, socket);
    if (loop->unwatched_count == ISOBAR_LOOP_MAX_UNWATCHED) return 0;
    loop->unwatched[loop->unwatched_count].socket = socket;
    loop->unwatched[loop->unwatched_count].what = what;
    loop->unwatched_count++;
    return 1;
}

/// Whether this registration is to be refused for a test.
static int loop_refuses_for_tests(void) {
    int left = atomic_load(&refused_watches_for_tests);
    while (left > 0) {
        if (atomic_compare_exchange_weak(&refused_watches_for_tests, &left, left - 1)) return 1;
    }
    return 0;
}

/// Whether `socket` was added to the epoll set and not deleted since.
static int loop_is_registered(const isobar_curl_loop *loop, curl_socket_t socket) {
    return socket >= 0 && (size_t)socket < loop->registered_count && loop->registered[socket];
}

/// Marks `socket` as in the epoll set or not; 0 when the mark cannot be stored (memory).
static int loop_mark(isobar_curl_loop *loop, curl_socket_t socket, unsigned char value) {
    if (socket < 0) return 0;
    if ((size_t)socket >= loop->registered_count) {
        if (!value) return 1;
        size_t count = loop->registered_count ? loop->registered_count : 64;
        while (count <= (size_t)socket) count *= 2;
        unsigned char *grown = realloc(loop->registered, count);
        if (grown == NULL) return 0;
        memset(grown + loop->registered_count, 0, count - loop->registered_count);
        loop->registered = grown;
        loop->registered_count = count;
    }
    loop->registered[socket] = value;
    return 1;
}

static long long monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/// CURLMOPT_SOCKETFUNCTION: keeps the epoll set in step with the sockets and directions libcurl waits on.
static int loop_socket(CURL *easy, curl_socket_t socket, int what, void *user, void *socket_user) {
    (void)easy;
    (void)socket_user;
    isobar_curl_loop *loop = user;
    if (what == CURL_POLL_REMOVE) {
        // The descriptor may already be closed (and then it has left the set by itself).
        epoll_ctl(loop->epoll, EPOLL_CTL_DEL, socket, NULL);
        loop_mark(loop, socket, 0);
        loop_forget_unwatched(loop, socket);
        return 0;
    }
    struct epoll_event event = {0};
    if (what & CURL_POLL_IN) event.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) event.events |= EPOLLOUT;
    event.data.u64 = ((uint64_t)(unsigned)what << 32) | (uint32_t)socket;
    // The mark is a guess that the kernel corrects: a descriptor closed and its number reused is not in the set (ENOENT),
    // one added without a mark is (EEXIST).
    int operation = loop_is_registered(loop, socket) ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
    int refused = loop_refuses_for_tests();
    int watched = !refused && epoll_ctl(loop->epoll, operation, socket, &event) == 0;
    if (!watched && !refused) {
        int retry = errno == ENOENT ? EPOLL_CTL_ADD : errno == EEXIST ? EPOLL_CTL_MOD : -1;
        watched = retry >= 0 && epoll_ctl(loop->epoll, retry, socket, &event) == 0;
    }
    if (!watched) {
        // Out of the set (a stale registration would report events for directions no longer wanted), driven by hand.
        epoll_ctl(loop->epoll, EPOLL_CTL_DEL, socket, NULL);
        loop_mark(loop, socket, 0);
        return loop_keep_unwatched(loop, socket, what) ? 0 : -1;
    }
    loop_forget_unwatched(loop, socket);
    loop_mark(loop, socket, 1);
    return 0;
}

/// CURLMOPT_TIMERFUNCTION: remembers when libcurl next wants to be called for its timeouts.
static int loop_timer(CURLM *multi, long timeout_ms, void *user) {
    (void)multi;
    isobar_curl_loop *loop = user;
    loop->timer_due = timeout_ms < 0 ? -1 : monotonic_ms() + timeout_ms;
    return 0;
}

isobar_curl_loop *isobar_curl_loop_create(CURLM *multi) {
    if (!ready() || multi == NULL) return NULL;
    isobar_curl_loop *loop = calloc(1, sizeof *loop);
    if (loop == NULL) return NULL;
    loop->multi = multi;
    loop->timer_due = -1;
    loop->epoll = epoll_create1(EPOLL_CLOEXEC);
    loop->wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event event = {.events = EPOLLIN, .data.u64 = ISOBAR_LOOP_WAKE_TAG};
    if (loop->epoll < 0 || loop->wake < 0 || epoll_ctl(loop->epoll, EPOLL_CTL_ADD, loop->wake, &event) != 0
        || curl.multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, loop_socket) != CURLM_OK
        || curl.multi_setopt(multi, CURLMOPT_SOCKETDATA, loop) != CURLM_OK
        || curl.multi_setopt(multi, CURLMOPT_TIMERFUNCTION, loop_timer) != CURLM_OK
        || curl.multi_setopt(multi, CURLMOPT_TIMERDATA, loop) != CURLM_OK) {
        isobar_curl_loop_detach(loop);
        isobar_curl_loop_destroy(loop);
        return NULL;
    }
    return loop;
}

void isobar_curl_loop_detach(isobar_curl_loop *loop) {
    if (loop == NULL || !ready()) return;
    curl.multi_setopt(loop->multi, CURLMOPT_SOCKETFUNCTION, (curl_socket_callback)NULL);
    curl.multi_setopt(loop->multi, CURLMOPT_SOCKETDATA, (void *)NULL);
    curl.multi_setopt(loop->multi, CURLMOPT_TIMERFUNCTION, (curl_multi_timer_callback)NULL);
    curl.multi_setopt(loop->multi, CURLMOPT_TIMERDATA, (void *)NULL);
}

void isobar_curl_loop_destroy(isobar_curl_loop *loop) {
    if (loop == NULL) return;
    if (loop->epoll >= 0) close(loop->epoll);
    if (loop->wake >= 0) close(loop->wake);
    free(loop->registered);
    free(loop);
}

int isobar_curl_loop_wake(isobar_curl_loop *loop) {
    uint64_t one = 1;
    // EAGAIN means the counter is already non-zero: a wake-up is pending anyway.
    return write(loop->wake, &one, sizeof one) == sizeof one || errno == EAGAIN ? 0 : -1;
}

int isobar_curl_loop_run(isobar_curl_loop *loop, int max_wait_ms) {
    if (!ready()) return -1;
    int wait = max_wait_ms < 0 ? 0 : max_wait_ms;
    if (loop->unwatched_count > 0 && wait > 10) wait = 10;
    if (loop->timer_due >= 0) {
        long long until = loop->timer_due - monotonic_ms();
        if (until < wait) wait = until < 0 ? 0 : (int)until;
    }
    struct epoll_event events[64];
    int count = epoll_wait(loop->epoll, events, 64, wait);
    if (count < 0 && errno != EINTR) return -1;
    int running = 0;
    for (int index = 0; index < count; index++) {
        uint64_t tag = events[index].data.u64;
        if (tag == ISOBAR_LOOP_WAKE_TAG) {
            // One read takes the whole count: however many wake-ups were sent, they are all answered now.
            uint64_t drained;
            (void)!read(loop->wake, &drained, sizeof drained);
            continue;
        }
        curl_socket_t socket = (curl_socket_t)(uint32_t)tag;
        int wanted = (int)(tag >> 32);
        uint32_t happened = events[index].events;
        int action = 0;
        if (happened & EPOLLIN) action |= CURL_CSELECT_IN;
        if (happened & EPOLLOUT) action |= CURL_CSELECT_OUT;
        // An error or hang-up is left for libcurl to find by reading or writing in the direction it waits on.
        if (happened & (EPOLLERR | EPOLLHUP)) {
            if (wanted & CURL_POLL_IN) action |= CURL_CSELECT_IN;
            if (wanted & CURL_POLL_OUT) action |= CURL_CSELECT_OUT;
        }
        curl.multi_socket_action(loop->multi, socket, action, &running);
    }
    // A copy: libcurl's callbacks may change the list while it acts.
    int unwatched_count = loop->unwatched_count;
    struct { curl_socket_t socket; int what; } unwatched[ISOBAR_LOOP_MAX_UNWATCHED];
    memcpy(unwatched, loop->unwatched, sizeof unwatched[0] * (size_t)unwatched_count);
    for (int index = 0; index < unwatched_count; index++) {
        int action = 0;
        if (unwatched[index].what & CURL_POLL_IN) action |= CURL_CSELECT_IN;
        if (unwatched[index].what & CURL_POLL_OUT) action |= CURL_CSELECT_OUT;
        curl.multi_socket_action(loop->multi, unwatched[index].socket, action, &running);
    }
    if (loop->timer_due >= 0 && loop->timer_due <= monotonic_ms()) {
        loop->timer_due = -1;
        curl.multi_socket_action(loop->multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    return count;
}
