@testable import Exec
import Foundation
import Testing

/// What bounds a plug-in's run: the command's deadline alone when it has one, the program's own limits when it has none.
@Suite struct ExecDeadlineTests {
    let now = Date(timeIntervalSince1970: 1_795_856_400)

    @Test func aCallRunsUntilAMomentBeforeTheCommandsDeadlineHoweverFarItIs() {
        // A roomy deadline is not cut to 30 s: a loaded machine within the command's deadline never makes a timeout.
        #expect(ExecProvider.callSeconds(remaining: 600) == 600 - ExecProvider.spareSeconds)
        #expect(ExecProvider.callSeconds(remaining: 10) == 10 - ExecProvider.spareSeconds)
        // A short deadline keeps nine tenths of itself, so that the program's timeout still comes first.
        #expect(abs(ExecProvider.callSeconds(remaining: 1) - 0.9) < 1e-9)
    }

    @Test func withoutADeadlineACallHasThirtySeconds() {
        // A batch without `--timeout` runs with a deadline years away: that is none.
        #expect(ExecProvider.callSeconds(remaining: 10 * 365 * 86_400) == ExecProvider.defaultCallSeconds)
        #expect(ExecProvider.callSeconds(remaining: ExecProvider.noDeadlineSeconds) == ExecProvider.defaultCallSeconds)
    }

    @Test func describeEndsByTheCommandsDeadlineElseWithinTenSeconds() {
        #expect(DescriptionCache.describeDeadline(command: now.addingTimeInterval(600), now: now) == now.addingTimeInterval(600))
        #expect(DescriptionCache.describeDeadline(command: now.addingTimeInterval(2), now: now) == now.addingTimeInterval(2))
        #expect(DescriptionCache.describeDeadline(command: nil, now: now) == now.addingTimeInterval(DescriptionCache.describeSeconds))
        #expect(DescriptionCache.describeDeadline(command: now.addingTimeInterval(10 * 365 * 86_400), now: now)
            == now.addingTimeInterval(DescriptionCache.describeSeconds))
    }
}
