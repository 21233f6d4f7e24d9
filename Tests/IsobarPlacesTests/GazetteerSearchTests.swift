import IsobarCore
import IsobarPlaces
import Testing

@Suite("Gazetteer search over the bundled GeoNames cities")
struct GazetteerSearchTests {
    let gazetteer = Fixture.gazetteer

    /// Case, Latin diacritics and punctuation are ignored on both sides.
    @Test(arguments: [
        ("zurich", "Zürich", "CH"), ("ZÜRICH", "Zürich", "CH"), ("sao paulo", "São Paulo", "BR"), ("São Paulo", "São Paulo", "BR"),
        ("MINSK", "Minsk", "BY"), ("minsk", "Minsk", "BY"), ("lodz", "Łódź", "PL"), ("Malmo", "Malmö", "SE"),
        ("Dusseldorf", "Düsseldorf", "DE"), ("Ho Chi Minh City", "Ho Chi Minh City", "VN"), ("Reykjavik", "Reykjavík", "IS"),
    ])
    func foldsCaseAndDiacritics(query: String, name: String, country: String) throws {
        let first = try #require(try gazetteer.search(query, limit: 5).first)
        #expect(first.place.name == name)
        #expect(first.place.countryCode == country)
        #expect(first.kind == .exactName)
    }

    /// Alternate names in other scripts and exonyms find the city and report the name that matched.
    @Test(arguments: [
        ("Минск", "Minsk", "Минск"), ("Мінск", "Minsk", "Мінск"), ("東京", "Tokyo", "東京"), ("Москва", "Moscow", "Москва"),
        ("москва", "Moscow", "Москва"), ("МОСКВА", "Moscow", "Москва"), ("Moskau", "Moscow", "Moskau"), ("Londres", "London", "Londres"),
        ("Αθήνα", "Athens", "Αθήνα"), ("αθηνα", "Athens", "Αθήνα"), ("서울", "Seoul", "서울"), ("Пекин", "Beijing", "Пекин"),
    ])
    func findsAlternateNames(query: String, name: String, matched: String) throws {
        let first = try #require(try gazetteer.search(query, limit: 5).first)
        #expect(first.place.name == name)
        #expect(first.matchedName == matched)
        #expect(first.kind == .exactAlternate)
    }

    /// Country codes name their country as people say it, the first of the file's names; an unknown code is nil.
    @Test(arguments: [("BY", "Belarus"), ("by", "Belarus"), ("US", "United States"), ("GB", "United Kingdom"), ("JP", "Japan")])
    func namesCountries(code: String, name: String) throws {
        #expect(try gazetteer.countryName(of: code) == name)
    }

    @Test func unknownCountryCodeHasNoName() throws {
        #expect(try gazetteer.countryName(of: "QQ") == nil)
        #expect(try gazetteer.countryName(of: "") == nil)
    }

    @Test func parisInFranceFirstThenTheOthers() throws {
        let matches = try gazetteer.search("Paris", limit: 10)
        #expect(matches.first?.place.countryCode == "FR")
        #expect(matches.first?.place.timeZoneIdentifier == "Europe/Paris")
        #expect(matches.contains { $0.place.countryCode == "US" && $0.adminCode == "TX" && $0.kind == .exactName })
        let exact = matches.prefix { $0.kind == .exactName }
        #expect(exact.count >= 2)
        #expect(exact.map(\.population) == exact.map(\.population).sorted(by: >))
    }

    @Test func moscowInRussiaBeforeMoscowIdaho() throws {
        let labels = try Fixture.labels("Moscow", limit: 3)
        #expect(labels.first == "Moscow|RU|48|exact_name")
        #expect(labels.dropFirst().first == "Moscow|US|ID|exact_name")
    }

    @Test func londonInEnglandFirst() throws {
        let matches = try gazetteer.search("London", limit: 3)
        #expect(matches.first?.place.countryCode == "GB")
        #expect(matches.first?.place.adminArea == "England")
        #expect(matches.dropFirst().first?.place.countryCode == "CA")
    }

    @Test func springfieldsByPopulation() throws {
        let matches = try gazetteer.search("Springfield", limit: 10).filter { $0.kind == .exactName }
        #expect(matches.count >= 5)
        #expect(matches.allSatisfy { $0.place.countryCode == "US" })
        #expect(matches.map(\.population) == matches.map(\.population).sorted(by: >))
        #expect(matches.prefix(3).map(\.adminCode) == ["MO", "MA", "IL"])
    }

    @Test func exactNameBeatsExactAlternateBeatsPrefix() throws {
        let kinds = try gazetteer.search("Paris", limit: 10).map(\.kind)
        #expect(kinds == kinds.sorted())
        let prefix = try gazetteer.search("Lond", limit: 5)
        #expect(prefix.first?.place.name == "London")
        #expect(prefix.first?.kind == .prefix)
    }

    @Test func aWholeNameDoesNotBringOtherPlacesByTheBeginningOfAnAlternate() throws {
        let matches = try gazetteer.search("New York", limit: 10)
        #expect(matches.first?.place.name == "New York City")
        #expect(matches.first?.kind == .exactAlternate)
        #expect(matches.first?.matchedName == "New York")
        // Jakarta's alternate "New York Van Java" begins with the query; it is not what anyone means.
        #expect(!matches.contains { $0.place.name == "Jakarta" })
        #expect(try !gazetteer.search("Paris", limit: 50).contains { $0.place.name == "Warsaw" })
        // A beginning that is no place's whole name still finds cities by their alternates.
        #expect(try gazetteer.search("Moskv", limit: 1).first?.place.name == "Moscow")
        #expect(try gazetteer.search("New Yor", limit: 5).map(\.place.name).prefix(2) == ["New York City", "Jakarta"])
    }

    @Test(arguments: ["New York", "Paris", "Sao", "San", "Mosk", "Springfield", "Lond", "Mosow", "Saint Pe"])
    func rankedByMatchQualityThenPopulation(query: String) throws {
        let matches = try gazetteer.search(query, limit: 40)
        #expect(!matches.isEmpty)
        #expect(matches.map(\.kind) == matches.map(\.kind).sorted())
        for kind in Set(matches.map(\.kind)) {
            let populations = matches.filter { $0.kind == kind }.map(\.population)
            #expect(populations == populations.sorted(by: >), "\(query), \(kind)")
        }
    }

    @Test func theMatchSaysWhetherTheNameOrAnAlternateMatched() throws {
        let saoPaulo = try #require(try gazetteer.search("Sao Paulo", limit: 1).first)
        #expect(saoPaulo.matchedName == "São Paulo")
        #expect(!saoPaulo.matchedAlternate)
        let moscow = try #require(try gazetteer.search("Москва", limit: 1).first)
        #expect(moscow.matchedName == "Москва")
        #expect(moscow.matchedAlternate)
        let prefix = try #require(try gazetteer.search("Moskv", limit: 1).first)
        #expect(prefix.matchedName == "Moskva")
        #expect(prefix.matchedAlternate)
        #expect(prefix.kind == .prefix)
    }

    @Test(arguments: [("Sao Pau", "São Paulo"), ("Mosc", "Moscow"), ("Минс", "Minsk"), ("Zuri", "Zürich"), ("Ciudad de Mex", "Mexico City")])
    func prefixesFindTheBiggestCity(query: String, name: String) throws {
        let first = try #require(try gazetteer.search(query, limit: 3).first)
        #expect(first.place.name == name)
        #expect(first.kind == .prefix)
    }

    /// Substitution, insertion, deletion and transposition, in Latin and Cyrillic.
    @Test(arguments: [
        ("Mosow", "Moscow"), ("Londom", "London"), ("Lodnon", "London"), ("Mninsk", "Minsk"), ("Tokoy", "Tokyo"),
        ("Springfeld", "Springfield"), ("Моксва", "Moscow"),
    ])
    func forgivesOneTypo(query: String, name: String) throws {
        let first = try #require(try gazetteer.search(query, limit: 3).first)
        #expect(first.place.name == name)
        #expect(first.kind == .typo)
    }

    /// GeoNames lists the misspelling "Londn" as an alternate name of London, so it is found exactly.
    @Test func londnIsAKnownAlternate() throws {
        let first = try #require(try gazetteer.search("Londn", limit: 1).first)
        #expect(first.place.name == "London")
        #expect(first.place.countryCode == "GB")
    }

    @Test func noTypoForgivenessBelowFourLetters() throws {
        // "Lyon" has four letters; "Lyn" is one deletion away from it but too short to be forgiven.
        #expect(try gazetteer.search("Lyox", limit: 10).contains { $0.place.name == "Lyon" && $0.kind == .typo })
        #expect(try gazetteer.search("Lxn", limit: 50).allSatisfy { $0.kind != .typo })
    }

    @Test func twoTyposAreNotForgiven() throws {
        #expect(try gazetteer.search("Mswow", limit: 10).isEmpty)
    }

    @Test(arguments: [
        ("Paris, US", "Paris|US|TX|exact_name"), ("Paris, FR", "Paris|FR|11|exact_name"), ("Paris, TX", "Paris|US|TX|exact_name"),
        ("Paris, Texas", "Paris|US|TX|exact_name"), ("paris, usa", "Paris|US|TX|exact_name"), ("Paris, France", "Paris|FR|11|exact_name"),
        ("Moscow, ID", "Moscow|US|ID|exact_name"), ("Moscow, Idaho", "Moscow|US|ID|exact_name"), ("London, CA", "London|CA|08|exact_name"),
        ("London, UK", "London|GB|ENG|exact_name"), ("Springfield, Illinois", "Springfield|US|IL|exact_name"),
        ("Springfield, IL, US", "Springfield|US|IL|exact_name"), ("Springfield, Massachusetts", "Springfield|US|MA|exact_name"),
    ])
    func qualifiersNarrow(query: String, label: String) throws {
        let labels = try Fixture.labels(query, limit: 5)
        #expect(labels.first == label)
    }

    @Test func qualifierExcludesOtherCountries() throws {
        let matches = try gazetteer.search("Paris, US", limit: 20)
        #expect(!matches.isEmpty)
        #expect(matches.allSatisfy { $0.place.countryCode == "US" })
        #expect(try gazetteer.search("Minsk, FR", limit: 5).allSatisfy { $0.place.countryCode == "FR" })
    }

    @Test func matchCarriesThePlaceModel() throws {
        let minsk = try #require(try gazetteer.search("Minsk", limit: 1).first)
        #expect(minsk.geonamesID == 625144)
        #expect(minsk.place.countryCode == "BY")
        #expect(minsk.adminCode == "04")
        #expect(minsk.place.timeZoneIdentifier == "Europe/Minsk")
        #expect(abs(minsk.place.coordinate.latitude - 53.9) < 0.01)
        #expect(abs(minsk.place.coordinate.longitude - 27.5667) < 0.01)
        #expect(minsk.population > 1_000_000)
        #expect(minsk.place.utcOffsetSeconds == nil)
        let austin = try #require(try gazetteer.search("Austin, TX", limit: 1).first)
        #expect(austin.place.adminArea == "Texas")
    }

    @Test func limitIsRespected() throws {
        #expect(try gazetteer.search("Sa", limit: 7).count == 7)
        #expect(try gazetteer.search("Sa", limit: 0).isEmpty)
        let many = try gazetteer.search("San", limit: 200)
        #expect(many.count == 200)
        #expect(Set(many.map(\.geonamesID)).count == 200)
    }

    @Test func resolveGivesTheBestPlaceOrCoordinates() throws {
        #expect(try gazetteer.resolve("Минск").name == "Minsk")
        let point = try gazetteer.resolve("53.9, 27.57")
        #expect(point.coordinate.latitude == 53.9)
        #expect(point.coordinate.longitude == 27.57)
        #expect(throws: GazetteerError(.notFound, "")) { try gazetteer.resolve("Qqxzzv") }
    }
}
