import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Keeps the cache and the user's data to their owner: folders made 0700, database files (and their `-wal` and `-shm`,
/// which SQLite creates with the database file's mode) 0600, whatever the umask.
public enum PrivateFiles {
    /// `mkdir -p` with mode 0700 for the folders it makes; an existing folder is left as it is. Returns nil, or the
    /// folder that cannot be made and the system's error number (`ENOTDIR` when something else is in the way).
    public static func makeFolder(_ directory: String) -> (folder: String, errorNumber: Int32)? {
        var info = stat()
        if stat(directory, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? nil : (directory, ENOTDIR) }
        let parent = directory.lastIndex(of: "/").map { String(directory[..<$0]) } ?? ""
        if !parent.isEmpty && parent != directory, let failure = makeFolder(parent) { return failure }
        guard mkdir(directory, 0o700) != 0 else {
            // mkdir applies the umask, which can only remove bits; this makes the mode exactly 0700.
            _ = chmod(directory, 0o700)
            return nil
        }
        let number = errno
        return number == EEXIST ? nil : (directory, number)
    }

    /// Before SQLite opens `path`: creates the file with mode 0600 when it is missing, and takes group and other access
    /// away from the file and its `-wal` and `-shm` when they are the user's own (never loosening a stricter mode).
    /// Best effort: when this fails, opening reports the cause.
    static func prepareDatabase(_ path: String) {
        // O_EXCL: an existing file is never opened here, as closing a descriptor would drop the POSIX locks SQLite
        // holds on it through this process's other connections.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { continue }
            let mode = info.st_mode & 0o7777
            if mode & 0o077 != 0 { _ = chmod(file, mode & ~0o077) }
        }
    }

    /// The failure of a database file at `path` that SQLite could open only for reading, with the system's reason when it
    /// gives one (a read-only file system, a file that is not the user's to write).
    static func readOnly(_ path: String) -> StoreError {
        let number = access(path, W_OK) == 0 ? 0 : errno
        let reason = number == 0 ? "it was opened read-only" : "it cannot be written: \(String(cString: strerror(number)))"
        return StoreError(code: SQLITE_READONLY, reason, cause: reason, systemError: number)
    }
}
