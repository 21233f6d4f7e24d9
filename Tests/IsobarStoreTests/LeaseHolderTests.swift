import Foundation
@testable import IsobarStore
import IsobarTestKit
import Testing

/// Which lease holders count as ended: a process of this boot that no longer runs, and no other.
@Suite struct LeaseHolderTests {
    @Test func thisProcessIsAHolderThatRuns() throws {
        let me = try #require(LeaseHolder.current)
        #expect(me.pid == getpid())
        #expect(LeaseHolder(mark: me.mark) == me)
        #expect(!me.hasEnded)
    }

    @Test func aProcessThatExitedHasEnded() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let ticks = LeaseHolder.startTicks(of: process.processIdentifier)
        process.waitUntilExit()
        let me = try #require(LeaseHolder.current)
        let ended = LeaseHolder(boot: me.boot, pid: process.processIdentifier, startTicks: ticks ?? 0)
        #expect(ended.hasEnded)
    }

    @Test func aReusedProcessIdIsAnotherProcess() throws {
        let me = try #require(LeaseHolder.current)
        #expect(LeaseHolder(boot: me.boot, pid: me.pid, startTicks: me.startTicks + 1).hasEnded)
    }

    @Test func aHolderOfAnotherBootOrAnUnreadableMarkIsNeverJudged() throws {
        let me = try #require(LeaseHolder.current)
        #expect(!LeaseHolder(boot: "another-machine", pid: 999_999, startTicks: 1).hasEnded)
        for mark in ["", "x", "a/b/c", "\(me.boot)/-3/1", "\(me.boot)/12", "0123456789abcdef-0123456789abcdef"] {
            #expect(LeaseHolder(mark: mark) == nil, "\(mark)")
        }
    }
}
