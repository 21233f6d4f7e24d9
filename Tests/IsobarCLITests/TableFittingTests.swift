@testable import IsobarCLI
@testable import IsobarConsensus
@testable import IsobarRender
import Testing

@Suite struct TableFittingTests {
    /// A small forecast-like table with every kind of narrowing.
    func table() -> TextTable {
        var table = TextTable(header: ["Day", "Condition", "Max °C", "Wind m/s", "Sources"])
        table.leftAligned = [0, 1]
        table.rows = [
            ["Sat Nov 28", "partly cloudy", "15.3 (15.2…15.5)", "4.1 (3.8…4.4)", "2"],
            ["Sun Nov 29", "snow", "-0.5", "9.1 (8.7…9.5)", "1"],
        ]
        table.narrowing = [
            .cells([3], loses: "ranges", Abbreviation.withoutRange), .cells([2], loses: "ranges", Abbreviation.withoutRange),
            .cells([1], Abbreviation.condition), .drop(4), .truncate(1, minimum: 5),
        ]
        return table
    }

    @Test func wideEnoughOrNoWidthIsTheTableAsItIs() {
        let table = table()
        #expect(table.render(width: nil) == table.render())
        #expect(table.render(width: table.width) == table.render())
        #expect(table.render(width: 200) == table.render())
    }

    @Test func narrowingStopsAsSoonAsTheTableFits() {
        #expect(table().render(width: 62) == """
            Day         Condition                Max °C  Wind m/s  Sources
            Sat Nov 28  partly cloudy  15.3 (15.2…15.5)       4.1        2
            Sun Nov 29  snow                       -0.5       9.1        1
            To fit 62 columns: no ranges for Wind m/s.

            """)
        #expect(table().render(width: 52) == """
            Day         Condition      Max °C  Wind m/s  Sources
            Sat Nov 28  partly cloudy    15.3       4.1        2
            Sun Nov 29  snow             -0.5       9.1        1
            To fit 52 columns: no ranges.

            """)
    }

    @Test func columnsAreLeftOutAndSaidSo() {
        #expect(table().render(width: 39) == """
            Day         Condition  Max °C  Wind m/s
            Sat Nov 28  p. cloudy    15.3       4.1
            Sun Nov 29  snow         -0.5       9.1
            To fit 39 columns: no ranges; Sources
              left out.

            """)
    }

    @Test func textIsCutOnlyAsFarAsNeeded() {
        #expect(table().render(width: 36) == """
            Day         Condi…  Max °C  Wind m/s
            Sat Nov 28  p. cl…    15.3       4.1
            Sun Nov 29  snow      -0.5       9.1
            To fit 36 columns: no ranges;
              Sources left out.

            """)
    }

    @Test func rowsTurnIntoLinesWhenNothingElseFits() {
        #expect(table().render(width: 20) == """
            Sat Nov 28
              Condition  partly
                cloudy
              Max °C     15.3
                (15.2…15.5)
              Wind m/s   4.1
                (3.8…4.4)
              Sources    2
            Sun Nov 29
              Condition  snow
              Max °C     -0.5
              Wind m/s   9.1
                (8.7…9.5)
              Sources    1

            """)
    }

    @Test func wideCharactersAreAlignedByCells() {
        var table = TextTable(header: ["City", "Now °C"])
        table.rows = [["東京, 東京都, JP", "13.4"], ["Minsk, BY", "-0.4"]]
        #expect(table.render() == """
            City              Now °C
            東京, 東京都, JP    13.4
            Minsk, BY           -0.4

            """)
        table.narrowing = [.truncate(0, minimum: 6)]
        let narrow = table.render(width: 20)
        #expect(narrow.split(separator: "\n").allSatisfy { String($0).cellWidth <= 20 }, "\(narrow)")
        #expect(narrow.contains("東京, 東京…"))
    }

    /// Long, wide and odd cells in every layout: no line is wider than any width from 20 to 160.
    @Test func everyLayoutFitsWhateverItHolds() {
        let cityColumns = cellColumns([(.number, "#", nil), (.city, "City", nil), (.now, "Now °C", nil), (.condition, "Condition", nil),
                                       (.providers, "Providers", "Prov."), (.from, "From", nil)] as [(TableLayouts.Cities, String, String?)])
        let cities = cityColumns.table([["1", "東京, 東京都, JP", "13.4", "thunderstorm with hail", "2/2", "ok"],
                                        ["12", "Llanfairpwllgwyngyll, Wales, GB", "–", "–", "0/3", "error, rate_limited, skipped"]],
                                       narrowing: TableLayouts.cities(cityColumns))
        let searchColumns = cellColumns([(.number, "#", nil), (.place, "Place", nil), (.adminArea, "Admin area", "Admin"), (.country, "Country", "CC"),
                                         (.latitude, "Latitude", "Lat"), (.longitude, "Longitude", "Lon"), (.zone, "Time zone", "Zone"),
                                         (.population, "Population", "Pop."), (.matched, "Matched", nil)] as [(TableLayouts.Search, String, String?)])
        let search = searchColumns.table([["1", "São Paulo", "São Paulo", "BR", "-23.5475", "-46.63611", "America/Sao_Paulo", "10021295", "\"Sao Paulo\" ← name \"São Paulo\""],
                                          ["2", "東京", "東京都", "JP", "35.6895", "139.69171", "Asia/Tokyo", "8336599", "\"東京\" ← alternate name \"東京\""]],
                                         narrowing: TableLayouts.search(searchColumns))
        let cacheColumns = cellColumns([(.provider, "Provider", nil), (.kind, "Kind", nil), (.entries, "Entries", nil), (.oldest, "Oldest", nil),
                                        (.newest, "Newest", nil)] as [(TableLayouts.CacheStats, String, String?)])
        let cache = cacheColumns.table([["a-very-long-provider-id-of-a-mirror", "forecast", "1204", "23 h", "42 s"]],
                                       narrowing: TableLayouts.cacheStats(cacheColumns))
        for table in [cities, search, cache] {
            for width in 20...160 {
                let text = table.render(width: width)
                #expect(text.split(separator: "\n").allSatisfy { String($0).cellWidth <= width }, "\(width):\n\(text)")
            }
        }
    }

    @Test func aColumnIsNamedByItsKeyAndKeepsItsHeadersAndCell() {
        let columns = TableColumns<TableLayouts.CacheStats, (String, Int)>([
            ColumnSpec(.provider, "Provider", left: true) { $0.0 }, ColumnSpec(.kind, "Kind", short: "K", left: true) { _ in "forecast" },
            ColumnSpec(.entries, "Entries") { String($0.1) }, ColumnSpec(.oldest, "Oldest") { _ in "–" }, ColumnSpec(.newest, "Newest") { _ in "–" },
        ])
        #expect(columns.index(.provider) == 0 && columns.index(.oldest) == 3)
        let table = columns.table([("a", 7), ("b", 12)], narrowing: [columns.drop(.oldest)])
        #expect(table.header == ["Provider", "Kind", "Entries", "Oldest", "Newest"])
        #expect(table.rows == [["a", "forecast", "7", "–", "–"], ["b", "forecast", "12", "–", "–"]])
        #expect(table.leftAligned == [0, 1])
        guard case .headers(let headers, let legend) = columns.shortHeaders([.kind, .entries], legend: "K = kind") else {
            Issue.record("not a header step")
            return
        }
        // A column without a short header keeps its header.
        #expect(headers == [1: "K", 2: "Entries"] && legend == "K = kind")
        guard case .drop(let dropped) = columns.drop(.newest) else {
            Issue.record("not a drop step")
            return
        }
        #expect(dropped == 4)
    }

    @Test func abbreviations() {
        #expect(Abbreviation.initials(["OpenWeatherMap", "Open-Meteo"]) == ["OWM", "OM"])
        #expect(Abbreviation.initials(["Met Office", "Met Éireann"]) == ["MO", "MÉ"])
        #expect(Abbreviation.initials(["Open Meteo", "OpenMeteo", "Pirate Weather"]) == ["Open Meteo", "OpenMeteo", "PW"])
        #expect(Abbreviation.initials(["Pirate"]) == ["Pirate"])
        #expect(Abbreviation.condition("partly cloudy (?)") == "p. cloudy (?)")
        #expect(Abbreviation.condition("thunderstorm with hail") == "hailstorm")
        #expect(Abbreviation.condition("thunderstorm") == "t-storm")
        #expect(Abbreviation.condition("12.5") == "12.5")
        #expect(Abbreviation.withoutRange("-0.5* (-0.7…-0.3)") == "-0.5*")
        #expect(Abbreviation.dayWithoutMonth("Sun Mar 29 (23 h)") == "Sun 29 (23 h)")
    }

    /// A compare-like table: six sources, the consensus, and two lesser columns that may be left out.
    func sixSources() -> TextTable {
        var table = TextTable(header: ["Now", "Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Consensus", "Spread", "Conf."])
        table.rows = [
            ["Temp °C", "1.8", "3.0", "1.5", "2.8", "3.0", "1.8", "2.3", "1.5", "63%"],
            ["Wind from", "WNW 300°", "NW 317°", "WNW 302°", "WNW 300°", "NW 317°", "WNW 300°", "WNW 301°", "17°", "86%"],
        ]
        table.uncut = Set(1...7)
        table.narrowing = [.drop(9), .drop(8)] + (1...7).map { .truncate($0, minimum: 5) }
        return table
    }

    @Test func uncutColumnsSplitTheTableIntoPartsRepeatingTheLabels() {
        #expect(sixSources().render(width: 64) == """
            Now           Alpha    Bravo   Charlie     Delta     Echo
            Temp °C         1.8      3.0       1.5       2.8      3.0
            Wind from  WNW 300°  NW 317°  WNW 302°  WNW 300°  NW 317°

            Now         Foxtrot  Consensus  Spread  Conf.
            Temp °C         1.8        2.3     1.5    63%
            Wind from  WNW 300°   WNW 301°     17°    86%
            To fit 64 columns: in 2 parts.

            """)
    }

    @Test func lesserColumnsGoOnlyWhenThatSavesAPart() {
        // At 50 columns: three parts with every column, two without Spread and Conf., which are then left out and said to be.
        #expect(sixSources().render(width: 50) == """
            Now           Alpha    Bravo   Charlie     Delta
            Temp °C         1.8      3.0       1.5       2.8
            Wind from  WNW 300°  NW 317°  WNW 302°  WNW 300°

            Now           Echo   Foxtrot  Consensus
            Temp °C        3.0       1.8        2.3
            Wind from  NW 317°  WNW 300°   WNW 301°
            To fit 50 columns: Spread, Conf. left out; in 2
              parts.

            """)
        // At 40 columns both ways take three parts: nothing is left out.
        let text = sixSources().render(width: 40)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 40 })
        #expect(text.components(separatedBy: "\nNow ").count == 3)
        #expect(text.contains("Spread") && text.contains("Conf.") && !text.contains("left out"))
        #expect(!text.contains("…"))
    }

    @Test func partsGiveWayToLinesWhenOneColumnDoesNotFitBesideTheLabels() {
        let text = sixSources().render(width: 16)
        #expect(text.hasPrefix("Temp °C\n  Alpha"))
        #expect(!text.contains("parts"))
    }
}

/// Columns whose rows are their cells in order: each a key, a header and a short header.
private func cellColumns<Key>(_ specs: [(Key, String, String?)]) -> TableColumns<Key, [String]> {
    TableColumns(specs.enumerated().map { index, spec in ColumnSpec(spec.0, spec.1, short: spec.2) { $0[index] } })
}
