import Exec
import Foundation
import IsobarCore
import Testing

/// How a program is started and stopped: a clean signal state, and nothing of its process group left when a call returns.
@Suite(.serialized) struct ProgramRunnerTests {
    @Test func aProgramStartsWithNoSignalBlockedOrIgnored() async throws {
        let seen = temporaryDirectory("signals") + "/status"
        // Read by a child of the shell, which starts with the shell's own mask: the shell itself blocks every signal for a
        // moment while it forks, so reading its status then could see that instead.
        let plan = "grep -E '^Sig(Blk|Ign):' /proc/self/status > \(seen); echo '{\"protocol\":1,\"ok\":true,\"requests\":[{\"url\":\"https://weather.example/now\"}]}'"
        let provider = try await makeProvider(shell(script(plan: plan)))
        #expect(await failure(of: provider) == nil)
        let status = try String(contentsOfFile: seen, encoding: .utf8)
        #expect(status.contains("SigBlk:\t0000000000000000"), "\(status)")
        // None of the standard signals (1-31) is ignored; glibc's own two (32, 33) are beyond any program's reach.
        let ignoredLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") })
        let ignored = try #require(UInt64(ignoredLine.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        #expect(ignored & 0x7fff_ffff == 0, "\(status)")
    }

    @Test func aProgramThatIgnoresSIGTERMLeavesNoProcessOfItsGroupWhenTheCallReturns() async throws {
        let directory = temporaryDirectory("forked")
        let program = script(plan: hangingWithChildren(in: directory))
        let provider = try await makeProvider(shell(program))
        let error = try #require(await failure(of: provider, deadlineSeconds: 1))
        #expect(error.code == .timeout)
        let started = try #require(pids(in: directory + "/pids"))
        #expect(started.count > 1, "the program wrote its own pid and its children's")
        #expect(await survivors(started) == [], "processes of the program outlived the call")
    }

    @Test func aCancelledCallLeavesNoProcessOfItsGroup() async throws {
        let directory = temporaryDirectory("cancelled")
        let program = script(plan: hangingWithChildren(in: directory))
        let provider = try await makeProvider(shell(program))
        let call = Task { await failure(of: provider, deadlineSeconds: 120) }
        // The program has started all its children once it says it is ready.
        #expect(await appears(directory + "/ready"), "the program never became ready")
        call.cancel()
        let error = await call.value
        #expect(error?.code == .cancelled)
        let started = try #require(pids(in: directory + "/pids"))
        #expect(started.count == 21)
        #expect(await survivors(started) == [], "processes of the program outlived the call")
    }
}

/// Shell code that ignores SIGTERM, writes its pid to `directory/pids`, starts 20 children that ignore it too (adding their
/// pids), makes `directory/ready`, and waits for them.
func hangingWithChildren(in directory: String) -> String {
    "trap '' TERM; echo $$ >> \(directory)/pids; for i in $(seq 20); do sleep 1000 & echo $! >> \(directory)/pids; done; touch \(directory)/ready; wait"
}

/// The numbers in a file of pids, one a line; nil when there is no such file or it is empty.
func pids(in file: String) -> [Int32]? {
    let numbers = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    return numbers.isEmpty ? nil : numbers
}

/// True once the file exists; false if it has not appeared after a generous while (an outcome, not a measured time).
func appears(_ file: String) async -> Bool {
    for _ in 0..<600 {
        if FileManager.default.fileExists(atPath: file) { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return false
}

/// Those of `pids` still alive as a shell or a `sleep` (a zombie, or a number reused by another program, counts as gone),
/// once they are all gone or after a generous while: processes the call left are reparented, and go away asynchronously.
func survivors(_ pids: [Int32]) async -> [Int32] {
    func alive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno != ESRCH,
              let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
        let name = stat[stat.index(after: open)..<close]
        let state = stat[stat.index(after: close)...].split(separator: " ").first
        return ["sh", "dash", "bash", "sleep"].contains(name) && state != "Z" && state != "X"
    }
    var left = pids.filter(alive)
    for _ in 0..<200 where !left.isEmpty {
        try? await Task.sleep(for: .milliseconds(50))
        left = left.filter(alive)
    }
    return left
}
