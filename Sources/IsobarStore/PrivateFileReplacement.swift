#if canImport(Glibc)
import Glibc
#endif

extension PrivateFiles {
    /// Replaces the file at `path` with `bytes` in one step (a new file beside it, renamed over it), so a reader sees the
    /// old text or the new, never a part. A new file gets mode 0600 and its folders 0700; an existing file keeps its
    /// mode unless `mode` is given; a symbolic link is followed, so the file it points to is replaced. Returns nil, or the
    /// file or folder that could not be written and the system's error number.
    public static func replaceFile(_ path: String, with bytes: [UInt8], mode wanted: mode_t? = nil) -> (file: String, errorNumber: Int32)? {
        var target = path
        if let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        let folder = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        if !folder.isEmpty, let failure = makeFolder(folder) { return (failure.folder, failure.errorNumber) }
        var info = stat()
        let mode: mode_t = wanted ?? (stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o600)
        let temporary = "\(target).\(getpid()).new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return (temporary, errno) }
        var failure: Int32 = 0
        if fchmod(descriptor, mode) != 0 { failure = errno }
        var written = 0
        while failure == 0 && written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress.map { $0 + written }, $0.count - written) }
            if count < 0 { if errno != EINTR { failure = errno } } else { written += count }
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0 && failure == 0 { failure = errno }
        if failure == 0 && rename(temporary, target) != 0 { failure = errno }
        guard failure != 0 else { return nil }
        unlink(temporary)
        return (target, failure)
    }
}
