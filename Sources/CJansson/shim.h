// Typed, non-variadic access to jansson for Swift. Macros become static inline functions.
#ifndef ISOBAR_CJANSSON_SHIM_H
#define ISOBAR_CJANSSON_SHIM_H

#include <jansson.h>

/// The node type of a value (JSON_OBJECT, JSON_ARRAY, ...).
static inline int isobar_json_type(const json_t *value) { return (int)json_typeof(value); }

/// Releases one reference to a value.
static inline void isobar_json_release(json_t *value) { json_decref(value); }

/// Parses `length` bytes; returns NULL and fills `error` on failure.
static inline json_t *isobar_json_parse(const char *bytes, size_t length, json_error_t *error) {
    return json_loadb(bytes, length, JSON_DECODE_ANY | JSON_ALLOW_NUL, error);
}

/// Parses `length` bytes like `isobar_json_parse`, but an object with the same key twice is an error.
static inline json_t *isobar_json_parse_rejecting_duplicates(const char *bytes, size_t length, json_error_t *error) {
    return json_loadb(bytes, length, JSON_DECODE_ANY | JSON_ALLOW_NUL | JSON_REJECT_DUPLICATES, error);
}

/// Position of a parse error as (line, column, byte offset) and its text.
static inline const char *isobar_json_error_text(const json_error_t *error) { return error->text; }

#endif
