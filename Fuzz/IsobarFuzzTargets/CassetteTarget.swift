import FixtureReplay
import IsobarCore

/// A cassette file through the reader, then its first recording looked up again as replay does.
enum CassetteTarget {
    /// The target.
    static let target = FuzzTarget(name: "cassette", summary: "a whole cassette file (isobar-cassette, version 1)") { bytes in
        let interactions: [Interaction]
        do throws(ProviderError) {
            interactions = try Cassette.interactions(parsing: bytes, file: "fuzz.json")
        } catch {
            return FuzzTarget.refusal(error.message)
        }
        let library = CassetteLibrary(interactions: interactions, origin: "fuzz")
        guard let first = interactions.first else { return .accepted("no interactions") }
        do throws(ProviderError) {
            let found = try library.match(HTTPRequest(method: first.method, url: first.url))
            guard found.method == first.method, found.url.path == first.url.path else {
                return .violated("the first recording matched a different one")
            }
            return .accepted("\(interactions.count) interactions")
        } catch {
            return .violated("the first recording is not found again: \(error.message)")
        }
    }
}
