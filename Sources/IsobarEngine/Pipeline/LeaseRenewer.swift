import FoundationEssentials
import IsobarCore
import Synchronization

/// Renews every fetch lease one single-flight step holds, all together every third of a lease's length, from one task that
/// runs only while a lease is held: a call costs no task and no timer of its own to keep its lease.
final class LeaseRenewer: Sendable {
    private struct State {
        var held: [Int: (key: String, owner: LeaseOwner)] = [:]
        var nextID = 0
        var running = false
    }

    private let state = Mutex(State())
    private let locks: any FetchLock
    private let leaseSeconds: Double
    private let time: any TimeSource
    private let diagnostics: any DiagnosticSink

    /// A renewer of leases on `locks`, each lasting `leaseSeconds` unless renewed.
    init(locks: any FetchLock, leaseSeconds: Double, time: any TimeSource, diagnostics: any DiagnosticSink) {
        self.locks = locks
        self.leaseSeconds = leaseSeconds
        self.time = time
        self.diagnostics = diagnostics
    }

    /// Keeps renewing `owner`'s lease on `key` until `letGo` with the number returned.
    func hold(_ key: String, owner: LeaseOwner) -> Int {
        let (id, start) = state.withLock { state -> (Int, Bool) in
            state.nextID += 1
            state.held[state.nextID] = (key, owner)
            defer { state.running = true }
            return (state.nextID, !state.running)
        }
        if start { Task { await self.renewWhileHeld() } }
        return id
    }

    /// Stops renewing the lease `hold` returned `id` for.
    func letGo(_ id: Int) {
        state.withLock { _ = $0.held.removeValue(forKey: id) }
    }

    private func renewWhileHeld() async {
        while true {
            let slept = (try? await time.sleep(seconds: leaseSeconds / 3)) != nil
            let held = state.withLock { state -> [(key: String, owner: LeaseOwner)]? in
                guard slept, !state.held.isEmpty else {
                    state.running = false
                    return nil
                }
                return Array(state.held.values)
            }
            guard let held else { return }
            for lease in held {
                do throws(StorageError) {
                    _ = try await locks.renew(lease.key, owner: lease.owner, seconds: leaseSeconds, now: time.now())
                } catch {
                    diagnostics.report(Diagnostic(.lock, "cannot renew the fetch lease \(lease.key): \(error.message)"))
                }
            }
        }
    }
}
