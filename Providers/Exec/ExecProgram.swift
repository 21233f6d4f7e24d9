import FoundationEssentials
import IsobarCore

/// An outside program speaking the exec protocol: where it is, how it is started, and one call to it.
public struct ExecProgram: Sendable {
    /// The executable, an absolute path.
    public let executable: String
    /// Arguments after the executable.
    public let arguments: [String]
    /// The environment it is given: only harmless variables (never the caller's keys).
    public let environment: [String]
    /// The provider id, for messages.
    public let providerID: String
    /// The most it may write on stdout, in bytes.
    public var stdoutCap: Int
    /// Secrets scrubbed from everything the program writes before it is shown.
    public var secrets: [String] = []
    /// Where its stderr lines go (stderr under `--verbose`).
    public var log: @Sendable (String) -> Void = { _ in }

    /// Variables passed on from the caller's environment; nothing else is.
    public static let passedVariables = ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                                         "XDG_CONFIG_HOME"]
    /// Default stdout cap: 8 MiB.
    public static let defaultStdoutCap = 8 << 20

    /// The program of a command (`["python3", "x.py"]`): the first word is found on the environment's `PATH` unless it holds a `/`;
    /// relative paths are taken from `directory`. Throws `notConfigured` when it cannot be found.
    public init(command: [String], providerID: String, environment: [String: String], directory: String,
                stdoutCap: Int = ExecProgram.defaultStdoutCap) throws(ProviderError) {
        guard let first = command.first, !first.isEmpty else {
            throw ProviderError(.notConfigured, "\(providerID): the exec command is empty")
        }
        guard let executable = Self.locate(first, path: environment["PATH"], directory: directory) else {
            throw ProviderError(.notConfigured, "\(providerID): cannot find the program '\(first)'"
                + (first.contains("/") ? "" : " on PATH"))
        }
        self.executable = executable
        arguments = command.dropFirst().map { Self.absolute($0, directory: directory) }
        self.environment = Self.passedVariables.compactMap { name in environment[name].map { "\(name)=\($0)" } }
        self.providerID = providerID
        self.stdoutCap = stdoutCap
    }

    /// An existing executable for `name`: as given when it holds a `/`, else the first match on `path`.
    public static func locate(_ name: String, path: String?, directory: String) -> String? {
        let manager = FileManager.default
        if name.contains("/") {
            let candidate = absolute(name, directory: directory)
            return manager.isExecutableFile(atPath: candidate) ? candidate : nil
        }
        for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            var isDirectory = false
            if manager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory, manager.isExecutableFile(atPath: candidate) {
                return absolute(candidate, directory: directory)
            }
        }
        return nil
    }

    /// A relative path holding a `/` made absolute: against `directory` when the file is there, else against the working
    /// directory; other words (such as `-v`) are left alone.
    static func absolute(_ path: String, directory: String) -> String {
        guard !path.hasPrefix("/"), path.contains("/") else { return path }
        let manager = FileManager.default
        let beside = directory.hasSuffix("/") ? directory + path : directory + "/" + path
        if manager.fileExists(atPath: beside) { return beside }
        let working = manager.currentDirectoryPath
        return manager.fileExists(atPath: working + "/" + path) ? working + "/" + path : path
    }

    /// The executable's modification time, for caching its description.
    public var modificationTime: Double? {
        let script = arguments.first.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        // A symbolic link's own time says nothing of the program it points to: the file it resolves to is read.
        let times = [executable, script].compactMap { $0 }.compactMap { path -> Double? in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { destination in
                destination.hasPrefix("/") ? destination : String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/" + destination
            } ?? path
            return (try? FileManager.default.attributesOfItem(atPath: target)[.modificationDate] as? Date)?.timeIntervalSince1970
        }
        return times.max()
    }

    /// Sends one message and returns the program's answer, parsed and checked (protocol version, `ok`); every failure is a
    /// `ProviderError` naming the program's fault, with the last lines of its log and no secret.
    public func call(_ message: JSONOutput, deadline: Date) async throws(ProviderError) -> JSONValue {
        try await exchange(message, deadline: deadline).answer
    }

    /// As `call`, also saying whether the answer's text holds one of the secrets (a report must not).
    func exchange(_ message: JSONOutput, deadline: Date) async throws(ProviderError) -> (answer: JSONValue, repeatsSecret: Bool) {
        let input = Array((message.serialized() + "\n").utf8)
        let started = Date()
        let result = await ProgramRunner.run(executable: executable, arguments: arguments, environment: environment, input: input,
                                             deadline: deadline, stdoutCap: stdoutCap)
        let outcome: ProgramOutcome
        switch result {
        case .failure(let failure):
            throw ProviderError(.unavailable, "\(providerID): cannot start \(executable): \(failure.text)")
        case .success(let value):
            outcome = value
        }
        let logLines = scrub(String(decoding: outcome.stderr, as: UTF8.self)).split(separator: "\n").map(String.init)
        for line in logLines { log("\(providerID): \(line)") }
        let tail = Self.tail(logLines)
        if outcome.cancelled { throw ProviderError(.cancelled, "\(providerID): cancelled", reason: .cancelled) }
        if outcome.timedOut {
            let seconds = JSONOutput.format((max(0, deadline.timeIntervalSince(started)) * 10).rounded() / 10)
            throw ProviderError(.timeout, "\(providerID): the program did not answer before the deadline (\(seconds) s) and was stopped\(tail)",
                                reason: .deadline)
        }
        if outcome.overflowed {
            throw ProviderError(.badResponse(path: "$"), "\(providerID): the program wrote more than \(Self.mebibytes(stdoutCap)) on stdout and was stopped\(tail)",
                                reason: .bodyTooLarge)
        }
        if case .signalled(let signal) = outcome.end {
            throw ProviderError(.unavailable, "\(providerID): the program crashed (\(Self.signalName(signal)))\(tail)")
        }
        let answer: JSONValue
        do {
            answer = try JSONDocument(parsing: outcome.stdout, rejectingDuplicateKeys: true).rootValue
        } catch {
            if case .exited(let status) = outcome.end, status != 0 {
                throw ProviderError(.unavailable, "\(providerID): the program exited with status \(status) without an answer\(tail)")
            }
            let detail = outcome.stdout.isEmpty ? "no answer on stdout" : "invalid JSON on stdout (\(scrub(error.description)))"
            throw ProviderError(.badResponse(path: error.path), "\(providerID): the program gave \(detail)\(tail)")
        }
        do {
            return (try ExecMessages.checked(answer, providerID: providerID, end: outcome.end), holdsSecret(outcome.stdout))
        } catch {
            throw error.redacting(secrets).appendingTail(tail)
        }
    }

    /// True when `bytes` hold one of the secrets.
    private func holdsSecret(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return secrets.contains { !$0.isEmpty && text.contains($0) }
    }

    /// `text` with every secret replaced by `REDACTED`.
    func scrub(_ text: String) -> String {
        secrets.filter { !$0.isEmpty }.reduce(text) { $0.replacingAll($1, with: "REDACTED") }
    }

    /// The last three lines of a log, for a failure message (each cut to 200 characters).
    static func tail(_ lines: [String]) -> String {
        let kept = lines.suffix(3).map { $0.count > 200 ? String($0.prefix(200)) + "…" : $0 }
        return kept.isEmpty ? "" : " (its log ends: \(kept.joined(separator: " | ")))"
    }

    static func mebibytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
                                      11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"]
        return "signal \(signal)" + (names[signal].map { ", \($0)" } ?? "")
    }
}

extension ProviderError {
    /// This error with the program's log tail appended to its message.
    func appendingTail(_ tail: String) -> ProviderError {
        var copy = self
        if !tail.isEmpty, !copy.message.hasSuffix(tail) { copy.message += tail }
        return copy
    }
}
