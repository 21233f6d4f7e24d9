import Synchronization

/// Calls this command was granted by the local ledger while the shared server was away, by provider: charged to the server
/// with the next permit it decides for the provider, so that its count covers them too.
final class OwedCalls: Sendable {
    private let owed = Mutex<[String: Double]>([:])

    /// Nothing owed.
    init() {}

    /// Notes a call of `cost` granted locally for `provider`.
    func add(_ cost: Double, for provider: String) {
        owed.withLock { $0[provider, default: 0] += cost }
    }

    /// What is owed for each of `providers`, taken (a provider named twice is charged once, with its first request).
    func take(_ providers: [String]) -> [Double] {
        owed.withLock { owed in
            providers.map { provider in owed.removeValue(forKey: provider) ?? 0 }
        }
    }

    /// Puts back what `take` returned for `providers`, when the server could not be charged after all.
    func restore(_ amounts: [Double], for providers: [String]) {
        owed.withLock { owed in
            for (provider, amount) in zip(providers, amounts) where amount > 0 { owed[provider, default: 0] += amount }
        }
    }
}
