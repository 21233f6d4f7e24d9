// Typed access to SQLite for Swift: macros that Swift cannot import become static inline functions.
#ifndef ISOBAR_CSQLITE_SHIM_H
#define ISOBAR_CSQLITE_SHIM_H

#include <sqlite3.h>

/// Binds bytes that SQLite copies at once (SQLITE_TRANSIENT).
static inline int isobar_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/// Leaves checkpoints to SQLite's auto-checkpoint: closing the last connection neither checkpoints nor deletes the WAL.
static inline int isobar_sqlite_no_checkpoint_on_close(sqlite3 *database) {
    return sqlite3_db_config(database, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// Stops SQLite keeping memory statistics, so that its allocations take no process-wide mutex; SQLITE_MISUSE (and no change)
/// once SQLite has started.
static inline int isobar_sqlite_keep_no_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/// Stops each connection allocating room for 20 cache pages in one block when it first reads (87 KB, every page of it
/// written to link the free list: 21 page faults where a cache hit reads four pages); pages are allocated as they are
/// needed instead. SQLITE_MISUSE (and no change) once SQLite has started.
static inline int isobar_sqlite_allocate_cache_pages_on_demand(void) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, 0);
}

#endif
