import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// The user's cities and home could not be read or saved; the message is one line naming the file and the cause.
public struct UserDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that decides; people read `message`.
    public enum Code: Sendable, Equatable {
        /// The folder or the file cannot be created or opened.
        case unavailable
        /// The file or its folder cannot be written (a read-only file system, permissions).
        case readOnly
        /// The disk (or the file's size limit) is full.
        case full
        /// The file is damaged or is not a database; it is left untouched.
        case damaged
        /// Another process held the file's lock for longer than the busy timeout.
        case locked
        /// A newer Isobar wrote the file.
        case newer
        /// Anything else SQLite reported.
        case failed
    }

    /// What the store was doing.
    public enum Operation: Sendable, Equatable {
        /// Opening the file (creating it and its folder when needed).
        case open
        /// Reading.
        case read
        /// Saving a change the user asked for.
        case save
    }

    /// Why.
    public let code: Code
    /// The file (or the folder that could not be made).
    public let path: String
    /// One line for people, naming the path and the cause.
    public let message: String

    /// An error with its message.
    public init(code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    /// The message.
    public var description: String { message }

    /// The user's words for a store failure while doing `operation` on the file at `path`.
    init(_ error: StoreError, _ operation: Operation, path: String, busyTimeoutMilliseconds: Int32) {
        let code = Self.code(error)
        let doing = switch operation {
        case .open: "cannot open your cities and home in"
        case .read: "cannot read your cities and home from"
        case .save: "cannot save your cities and home to"
        }
        let cause = switch code {
        case .full: "the disk is full (\(error.cause))"
        case .readOnly: "it cannot be written (\(error.cause))"
        case .locked: "another process kept it locked for more than \(Self.seconds(busyTimeoutMilliseconds)) (\(error.cause))"
        case .damaged: "the file is damaged (\(error.cause)); it was left as it is: restore it from a backup, or move it aside to start afresh"
        case .unavailable, .newer, .failed: error.cause
        }
        self.init(code: code, path: path, message: "\(doing) \(path): \(cause)")
    }

    /// The user's words for a folder that cannot be made.
    static func folder(_ directory: String, errorNumber: Int32) -> UserDataError {
        let cause = String(cString: strerror(errorNumber))
        let code: Code = [EROFS, EACCES, EPERM].contains(errorNumber) ? .readOnly : errorNumber == ENOSPC ? .full : .unavailable
        return UserDataError(code: code, path: directory, message: "cannot make the folder for your cities and home, \(directory): \(cause)")
    }

    private static func code(_ error: StoreError) -> Code {
        switch error.systemError {
        case ENOSPC, EDQUOT: return .full
        case EROFS, EACCES, EPERM: return .readOnly
        default: break
        }
        switch error.code {
        case SQLITE_FULL: return .full
        case SQLITE_READONLY, SQLITE_PERM: return .readOnly
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .damaged
        case SQLITE_MISMATCH: return .newer
        case SQLITE_CANTOPEN: return .unavailable
        default: return .failed
        }
    }

    private static func seconds(_ milliseconds: Int32) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
