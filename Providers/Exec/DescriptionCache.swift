import FoundationEssentials
import IsobarCore

/// Programs' answers to `describe`, kept per program (path and modification time) in `$XDG_CACHE_HOME/isobar/exec/`.
/// A missing or unreadable entry just means asking the program again.
struct DescriptionCache {
    /// Seconds a `describe` call may take when no command's deadline bounds it.
    static let describeSeconds = 10.0

    let directory: String?

    init(environment: [String: String]) {
        let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.cache" }
        directory = base.map { $0 + "/isobar/exec" }
    }

    /// The program's description: from the cache when the program has not changed, else by asking it (and keeping the answer).
    /// `deadline` (the command's, system clock) bounds the call; without one, `describeSeconds` do.
    func description(of program: ExecProgram, deadline: Date? = nil) async throws(ProviderError) -> ExecDescription {
        let identity = "\(program.executable)\u{0}\(program.arguments.joined(separator: "\u{0}"))"
        let stamp = program.modificationTime.map { JSONOutput.format($0) } ?? "unknown"
        let file = directory.map { "\($0)/\(Self.hash(identity)).json" }
        if let file, let cached = read(file, identity: identity, stamp: stamp) { return cached }
        let answer = try await program.call(ExecMessages.describe(), deadline: Self.describeDeadline(command: deadline, now: Date()))
        let description: ExecDescription
        do {
            description = try ExecDescription(answer: answer)
        } catch {
            throw ProviderError(.badResponse(path: error.path), "\(program.providerID): the program's description is wrong: \(error)")
        }
        if let file, let copy = try? JSONOutput(copying: answer) {
            let entry = JSONOutput.object([("program", .string(identity)), ("modified", .string(stamp)), ("answer", copy)])
            // Private to the user, like the rest of the cache: the folders 0700, the entry 0600.
            if let directory {
                let parent = String(directory[..<(directory.lastIndex(of: "/") ?? directory.endIndex)])
                for folder in [parent, directory] {
                    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                             attributes: [.posixPermissions: 0o700])
                }
            }
            _ = FileManager.default.createFile(atPath: file, contents: Data(entry.serialized().utf8), attributes: [.posixPermissions: 0o600])
        }
        return description
    }

    /// When a `describe` call asked at `now` must have ended: the command's deadline, or `describeSeconds` from now when
    /// the command has none (none given, or one farther than `ExecProvider.noDeadlineSeconds`).
    static func describeDeadline(command: Date?, now: Date) -> Date {
        guard let command, command.timeIntervalSince(now) < ExecProvider.noDeadlineSeconds else { return now.addingTimeInterval(describeSeconds) }
        return command
    }

    private func read(_ file: String, identity: String, stamp: String) -> ExecDescription? {
        guard let data = FileManager.default.contents(atPath: file),
              let root = try? JSONDocument(parsing: Array(data)).rootValue,
              (try? root.string("program")) == identity, (try? root.string("modified")) == stamp,
              let answer = try? root.member("answer") else { return nil }
        return try? ExecDescription(answer: answer)
    }

    /// FNV-1a of the text, as 16 hex digits.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
