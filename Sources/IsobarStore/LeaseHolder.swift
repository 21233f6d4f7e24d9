#if canImport(Glibc)
import Glibc
#endif

/// The process holding a lease, written beside it as `<boot id>/<pid>/<start time>`, so that a later command on the same
/// machine can tell that the holder has ended (interrupted, killed, crashed) and take its lease at once rather than wait for
/// it to expire. A mark from another boot (another machine, or before a restart) or one that cannot be read is never
/// judged ended: its lease expires as before.
struct LeaseHolder: Sendable, Equatable {
    /// The kernel's random identity of the boot the holder ran in.
    let boot: String
    /// Its process id.
    let pid: Int32
    /// When it started, in clock ticks since boot (`/proc/<pid>/stat`, field 22): a later process given the same id differs.
    let startTicks: UInt64

    /// This process; nil when `/proc` cannot tell.
    static let current: LeaseHolder? = {
        let pid = getpid()
        guard let boot = bootID, let ticks = startTicks(of: pid) else { return nil }
        return LeaseHolder(boot: boot, pid: pid, startTicks: ticks)
    }()

    /// A holder with these parts.
    init(boot: String, pid: Int32, startTicks: UInt64) {
        self.boot = boot
        self.pid = pid
        self.startTicks = startTicks
    }

    /// The holder a mark names; nil when it is not one.
    init?(mark: String) {
        let parts = mark.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let pid = Int32(parts[1]), pid > 0, let ticks = UInt64(parts[2]) else { return nil }
        self.init(boot: String(parts[0]), pid: pid, startTicks: ticks)
    }

    /// `<boot id>/<pid>/<start time>`.
    var mark: String { "\(boot)/\(pid)/\(startTicks)" }

    /// True when the holder ran in this boot of this machine and has ended: no process runs with its id and start time
    /// (one that has ended but is not yet reaped by its parent counts as ended).
    var hasEnded: Bool {
        guard boot == Self.bootID else { return false }
        guard let stat = Self.stat(of: pid) else { return true }
        return Self.startTicks(in: stat) != startTicks || Self.isDead(stat)
    }

    /// This boot's identity (`/proc/sys/kernel/random/boot_id`).
    static let bootID: String? = {
        guard let text = readSmallFile("/proc/sys/kernel/random/boot_id") else { return nil }
        let trimmed = text.filter { !$0.isWhitespace }
        return trimmed.isEmpty ? nil : trimmed
    }()

    /// A running process's start time, in ticks since boot.
    static func startTicks(of pid: Int32) -> UInt64? {
        stat(of: pid).flatMap(startTicks(in:))
    }

    /// The fields of `/proc/<pid>/stat` after the command's name (which may hold spaces and parentheses).
    private static func stat(of pid: Int32) -> [Substring]? {
        guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Field 22 (start time): the 20th after the name.
    private static func startTicks(in fields: [Substring]) -> UInt64? {
        fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Field 3 (state): a zombie or a dead process has ended.
    private static func isDead(_ fields: [Substring]) -> Bool {
        fields.first == "Z" || fields.first == "X"
    }

    /// The text of a file of at most 4 KiB; nil when it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
