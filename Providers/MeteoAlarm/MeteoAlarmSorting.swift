import FoundationEssentials
import IsobarCore

/// A country feed's CAP messages sorted into the place's and the others, as they are read.
struct MeteoAlarmSorting {
    /// How a warning is placed.
    let placing: MeteoAlarmPlacing
    /// What the place's report holds: the warnings placed there (narrowed to the areas that placed them), and, as a Cancel,
    /// every other Update or Cancel, so that what it replaces or withdraws is gone here too (an Update whose areas cannot be
    /// told to hold the place replaces the warning it names by nothing the place can be shown).
    private(set) var placed: [Alert] = []
    /// Every message of the feed as sent (green levels left out, Cancels as withdrawals), to tell which of the unplaced
    /// warnings are in force.
    private var all: [Alert] = []
    /// The warnings that could not be placed (some area of theirs has no polygon), with their areas' labels, in the feed's order.
    private var unplaced: [(identity: AlertIdentity, areas: [String])] = []

    /// Sorting for `placing`.
    init(placing: MeteoAlarmPlacing) { self.placing = placing }

    /// Reads one CAP file and sorts its alerts.
    mutating func add(_ bytes: [UInt8], source: String, language: AlertLanguage) throws(CAPError) {
        let root: XMLElement
        do { root = try XMLReader.parse(bytes) } catch { throw CAPError("not XML: \(error)") }
        let alerts = try CAPMessage.alerts(root, source: source, language: language)
        // The info blocks the alerts were read from: those in the chosen language, in order.
        let infos = root.children("info").filter { ($0.childText("language") ?? "en-US") == alerts.first?.language }
        for (index, alert) in alerts.enumerated() {
            let areas = index < infos.count ? try CAPMessage.areas(of: infos[index], identifier: alert.identity.identifier) : []
            sort(alert, areas: areas)
        }
    }

    private mutating func sort(_ alert: Alert, areas: [AlertArea]) {
        let green = MeteoAlarmPlacing.isGreen(alert)
        if alert.messageType == .cancel || (green && alert.messageType == .update) {
            placed.append(withdrawal(alert))
            all.append(withdrawal(alert))
            return
        }
        guard !green else { return }
        all.append(alert)
        if let here = placing.placed(alert, areas: areas) {
            placed.append(here)
        } else {
            // Every area with a polygon that leaves the place out: known not to be the place's, nothing to say.
            if areas.isEmpty || areas.contains(where: \.polygons.isEmpty) {
                unplaced.append((alert.identity, areas.map(Self.label)))
            }
            if alert.messageType == .update { placed.append(withdrawal(alert)) }
        }
    }

    /// `Strathclyde (EMMA_ID:UK105)`.
    private static func label(_ area: AlertArea) -> String {
        let codes = area.codes.joined(separator: ", ")
        return [area.description, codes.isEmpty ? nil : "(\(codes))"].compactMap { $0 }.joined(separator: " ")
    }

    /// `alert` as a Cancel of what it references, with no area of its own.
    private func withdrawal(_ alert: Alert) -> Alert {
        var withdrawal = alert
        withdrawal.messageType = .cancel
        withdrawal.area = AlertArea()
        return withdrawal
    }

    /// One line on the warnings in force at `asOf` (not replaced, withdrawn or ended) that could not be placed, with their
    /// areas and how to place them; nil when there are none.
    func unplacedNote(asOf: Date, country: MeteoAlarmCountry, place: Place) -> String? {
        let standing = Set(AlertMerge.active(all, at: asOf).map(\.alert.identity))
        var identities: [AlertIdentity] = []
        var areas: [String] = []
        for (identity, labels) in unplaced where standing.contains(identity) && !identities.contains(identity) {
            identities.append(identity)
            for area in labels where !area.isEmpty && !areas.contains(area) { areas.append(area) }
        }
        guard !identities.isEmpty else { return nil }
        let one = identities.count == 1
        let shown = areas.prefix(6).joined(separator: "; ") + (areas.count > 6 ? "; and \(areas.count - 6) more" : "")
        return "\(one ? "1 warning" : "\(identities.count) warnings") in force in \(country.name) could not be placed at \(place.name), "
            + "so \(one ? "it is" : "they are") not shown: no polygon of \(one ? "its" : "theirs") holds \(place.name) and no area code of "
            + "\(one ? "its" : "theirs") is configured for it; to place \(one ? "it" : "them"), list \(place.name)'s area codes under \"areas\" "
            + "in this source's entry (e.g. \"areas\": {\"\(place.name)\": [\"CODE\"]}); \(one ? "its areas" : "their areas"): \(shown)"
    }
}
