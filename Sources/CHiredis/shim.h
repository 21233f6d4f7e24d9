// Typed access to hiredis for Swift: the variadic redisCommand is left out (redisCommandArgv instead), and the
// context's error fields are read through accessors.
#ifndef ISOBAR_CHIREDIS_SHIM_H
#define ISOBAR_CHIREDIS_SHIM_H

#include <hiredis/hiredis.h>
#include <errno.h>
#include <sys/time.h>

/// A timeval of `milliseconds`.
static inline struct timeval isobar_redis_timeval(long milliseconds) {
    struct timeval tv;
    tv.tv_sec = milliseconds / 1000;
    tv.tv_usec = (milliseconds % 1000) * 1000;
    return tv;
}

/// Sends one command, arguments as binary-safe strings, and waits for its reply (NULL on an I/O or protocol error).
static inline redisReply *isobar_redis_command(redisContext *context, int count, const char *const *arguments, const size_t *lengths) {
    return (redisReply *)redisCommandArgv(context, count, (const char **)arguments, lengths);
}

/// True when the last call failed because the server did not answer within the timeout (read right after the call).
static inline int isobar_redis_timed_out(const redisContext *context) {
    return context->err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK);
}

/// The context's error code (0 when none).
static inline int isobar_redis_error_code(const redisContext *context) { return context->err; }

/// The context's error text.
static inline const char *isobar_redis_error_text(const redisContext *context) { return context->errstr; }

#endif
