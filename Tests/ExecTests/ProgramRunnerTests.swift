import Exec
import Foundation
import IsobarCore
import IsobarTestKit
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
        let started = try #require(ProcessWatch.pids(in: directory + "/pids"))
        #expect(started.count > 1, "the program wrote its own pid and its children's")
        #expect(await ProcessWatch.survivors(started) == [], "processes of the program outlived the call")
    }

    @Test func aCancelledCallLeavesNoProcessOfItsGroup() async throws {
        let directory = temporaryDirectory("cancelled")
        let program = script(plan: hangingWithChildren(in: directory))
        let provider = try await makeProvider(shell(program))
        let call = Task { await failure(of: provider, deadlineSeconds: 120) }
        // The program has started all its children once it says it is ready.
        #expect(await ProcessWatch.appears(directory + "/ready"), "the program never became ready")
        call.cancel()
        let error = await call.value
        #expect(error?.code == .cancelled)
        let started = try #require(ProcessWatch.pids(in: directory + "/pids"))
        #expect(started.count == 21)
        #expect(await ProcessWatch.survivors(started) == [], "processes of the program outlived the call")
    }
}

/// Shell code that ignores SIGTERM, writes its pid to `directory/pids`, starts 20 children that ignore it too (adding their
/// pids), makes `directory/ready`, and waits for them.
func hangingWithChildren(in directory: String) -> String {
    "trap '' TERM; echo $$ >> \(directory)/pids; for i in $(seq 20); do sleep 1000 & echo $! >> \(directory)/pids; done; touch \(directory)/ready; wait"
}
