import IsobarCore

/// The options of a `metar` observations entry.
public struct METAROptions: Sendable, Equatable {
    /// `max_distance_km`: how far from the place a station may be; nil for the provider's default.
    public var maxDistanceKilometres: Double?
    /// `archive_url`: where `isobar learn` asks for past reports; nil for the IEM ASOS archive.
    public var archiveURL: RequestURL?

    /// Options with that distance.
    public init(maxDistanceKilometres: Double?, archiveURL: RequestURL? = nil) {
        self.maxDistanceKilometres = maxDistanceKilometres
        self.archiveURL = archiveURL
    }

    /// The keys a metar entry has of its own.
    public static let keys = ["max_distance_km", "archive_url"]

    /// `max_distance_km`, 1 to 500, when present.
    public static func read(_ source: OptionSource) throws(OptionError) -> ProviderOptions {
        let entry = source.entry
        return try OptionError.reading {
            let distance = try entry.optionalDouble("max_distance_km")
            if let distance, !(1...500).contains(distance) {
                throw OptionError("\(entry.path).max_distance_km must be between 1 and 500")
            }
            var archiveURL: RequestURL?
            if let text = try entry.optionalString("archive_url") {
                guard let url = RequestURL(string: text),
                      url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(url.host)) else {
                    throw OptionError("\(entry.path).archive_url must be an https URL (plain http only for loopback hosts)")
                }
                archiveURL = url
            }
            return ProviderOptions(METAROptions(maxDistanceKilometres: distance, archiveURL: archiveURL))
        }
    }
}

extension METARProvider {
    /// Where the station list lies in Isobar's data directory.
    public static let stationsFile = "stations/metar-stations.tsv"

    /// How Isobar builds the METAR observation source from the configuration's `observations` entry; the station list is
    /// read from the data directory the first time a station is wanted.
    public static let factory = ProviderFactory(
        type: "metar", summary: "METAR reports of the nearest station (NOAA Aviation Weather Center); observations only",
        optionKeys: METAROptions.keys, readOptions: METAROptions.read,
        make: { context throws(ProviderError) in
            guard let directory = context.dataDirectory else {
                throw ProviderError(.notConfigured, "no data directory holds the METAR station list (\(stationsFile))")
            }
            let path = directory + "/" + stationsFile
            var configuration = Configuration(stations: { () throws(METARStationsError) in try METARStations(path: path) })
            if let url = context.settings.baseURL { configuration.baseURL = url }
            if let distance = context.settings.options.value(as: METAROptions.self)?.maxDistanceKilometres {
                configuration.maxDistanceKilometres = distance
            }
            if let url = context.settings.options.value(as: METAROptions.self)?.archiveURL { configuration.archiveURL = url }
            return METARProvider(configuration: configuration)
        })

    /// The station the report was observed at (from the notice it carries).
    public func observationStation(of report: WeatherReport) -> String? { Self.station(of: report) }
}
