/// Where a merged field's inputs and missing providers are kept: listed, or read when asked for from the hour grid the
/// merge already holds, so that merging an hour copies no provider's value into a list of its own.
enum FieldSources: Sendable {
    /// Listed in full.
    case listed(inputs: [ProviderValue], missing: [String])
    /// In `grid` at `base + provider`: the providers whose bit is set in `inputs` gave a usable value, those in `absent` none,
    /// and those in `outliers` were left out as outliers (bit `p` is provider `p`, so at most 32 providers).
    case grid(HourGrid, base: Int, inputs: UInt32, absent: UInt32, outliers: UInt32)

    /// The most providers the bit sets hold.
    static let gridLimit = UInt32.bitWidth

    /// Every provider's input, in input order, outliers marked.
    var inputs: [ProviderValue] {
        switch self {
        case .listed(let inputs, _):
            return inputs
        case .grid(let grid, let base, let given, _, let outliers):
            var result: [ProviderValue] = []
            result.reserveCapacity(given.nonzeroBitCount)
            for provider in grid.ids.indices where given & (1 << UInt32(provider)) != 0 {
                result.append(ProviderValue(
                    provider: grid.ids[provider], value: grid.values[base + provider], weight: grid.weights[provider],
                    origin: grid.origins[base + provider], isOutlier: outliers & (1 << UInt32(provider)) != 0))
            }
            return result
        }
    }

    /// Providers in the merge that gave no value.
    var missing: [String] {
        switch self {
        case .listed(_, let missing):
            return missing
        case .grid(let grid, _, _, let absent, _):
            guard absent != 0 else { return [] }
            return grid.ids.indices.filter { absent & (1 << UInt32($0)) != 0 }.map { grid.ids[$0] }
        }
    }
}
