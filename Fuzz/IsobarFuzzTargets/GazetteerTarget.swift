import IsobarPlaces

/// Gazetteer file bytes through the parser (header, tables, name index), then a few searches in what was read.
enum GazetteerTarget {
    /// Searches tried on every gazetteer that parses.
    static let queries = ["Minsk", "minsk, by", "Baranovichi, Belarus", "Sao Paulo"]

    /// The target.
    static let target = FuzzTarget(name: "gazetteer", summary: "the start of a gazetteer file (cities15000.tsv format)") { bytes in
        let gazetteer: Gazetteer
        do throws(GazetteerError) {
            gazetteer = try Gazetteer(bytes: bytes, name: "fuzz.tsv")
        } catch {
            return FuzzTarget.refusal(error.message)
        }
        var found = 0
        for query in queries {
            do throws(GazetteerError) {
                found += try gazetteer.search(query, limit: 5).count
            } catch {
                return .violated("a search in a gazetteer that parsed failed: \(error.message)")
            }
        }
        do throws(GazetteerError) {
            return .accepted("\(try gazetteer.cityCount()) cities, \(found) matches")
        } catch {
            return .violated("a gazetteer that parsed cannot count its cities: \(error.message)")
        }
    }
}
