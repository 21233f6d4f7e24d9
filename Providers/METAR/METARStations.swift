import FoundationEssentials
import IsobarPlaces

/// A station METAR reports are filed under.
public struct METARStation: Sendable, Equatable {
    /// The ICAO location indicator, e.g. `UMMS`.
    public var icao: String
    /// The airport's name.
    public var name: String
    /// ISO 3166 country code.
    public var countryCode: String
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees.
    public var longitude: Double
    /// Elevation, metres.
    public var elevationM: Double

    /// Creates a station.
    public init(icao: String, name: String, countryCode: String, latitude: Double, longitude: Double, elevationM: Double) {
        self.icao = icao
        self.name = name
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.elevationM = elevationM
    }
}

/// Why a station list could not be read.
public struct METARStationsError: Error, Equatable, CustomStringConvertible {
    /// One line saying what is wrong and where.
    public var description: String
}

/// The bundled list of stations (`config/stations/metar-stations.tsv`, made by `scripts/make-metar-stations.py`).
public struct METARStations: Sendable {
    /// Every station, sorted by ICAO indicator.
    public let stations: [METARStation]

    /// Reads the list's text: a header `isobar-metar-stations 1 COUNT`, comment lines, then one station per line.
    public init(text: String) throws(METARStationsError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        let header = lines.popFirst().map { $0.split(separator: "\t") } ?? []
        guard header.count == 3, header[0] == "isobar-metar-stations", header[1] == "1", let count = Int(header[2]) else {
            throw METARStationsError(description: "not an Isobar METAR station list (version 1): its first line is wrong")
        }
        var stations: [METARStation] = []
        stations.reserveCapacity(count)
        for (offset, line) in lines.enumerated() where !line.isEmpty && !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let latitude = Double(fields[3]), let longitude = Double(fields[4]),
                  let elevation = Double(fields[5]), abs(latitude) <= 90, abs(longitude) <= 180 else {
                throw METARStationsError(description: "METAR station list, line \(offset + 2): expected six fields with coordinates")
            }
            stations.append(METARStation(icao: String(fields[0]), name: String(fields[1]), countryCode: String(fields[2]),
                                         latitude: latitude, longitude: longitude, elevationM: elevation))
        }
        guard stations.count == count else {
            throw METARStationsError(description: "METAR station list: the header promises \(count) stations, the file holds \(stations.count)")
        }
        self.stations = stations
    }

    /// Reads the list from a file.
    public init(path: String) throws(METARStationsError) {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw METARStationsError(description: "cannot read the METAR station list \(path)")
        }
        try self.init(text: text)
    }

    /// Up to `limit` stations within `kilometres` of the coordinate, nearest first, with their distances in kilometres.
    public func nearest(latitude: Double, longitude: Double, withinKilometres kilometres: Double,
                        limit: Int) -> [(station: METARStation, kilometres: Double)] {
        // A cheap box first (a degree of latitude is about 111 km), then the great-circle distance.
        let latitudeSpan = kilometres / 110.5
        var found: [(station: METARStation, kilometres: Double)] = []
        for station in stations where abs(station.latitude - latitude) <= latitudeSpan {
            let distance = Geodesy.kilometres(latitude, longitude, station.latitude, station.longitude)
            if distance <= kilometres { found.append((station, distance)) }
        }
        found.sort { $0.kilometres != $1.kilometres ? $0.kilometres < $1.kilometres : $0.station.icao < $1.station.icao }
        return Array(found.prefix(max(0, limit)))
    }
}
