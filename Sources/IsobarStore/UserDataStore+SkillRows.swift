import FoundationEssentials
import IsobarConsensus
import IsobarCore
import IsobarEngine

extension UserDataStore {
    /// The kinds of member a group's rows hold.
    enum SkillRowKind: String {
        case source, pair, consensus, brier, recent, coverage, backfill
        case recentConsensus = "recent_consensus"
    }

    /// The stored record of one place (every place when the coordinates are nil).
    static func ledger(_ connection: Connection, latitude: Double?, longitude: Double?) throws(StoreError) -> SkillLedger {
        var arguments: [SQLValue] = []
        var filter = ""
        if let latitude, let longitude {
            filter = "WHERE latitude = ? AND longitude = ?"
            arguments = [.real(latitude), .real(longitude)]
        }
        var ledger = SkillLedger()
        for row in try connection.query("""
            SELECT latitude, longitude, basis, field, lead, kind, member, as_of, count, sums FROM skill \(filter)
            """, arguments) {
            guard let latitude = row[0].double, let longitude = row[1].double, let basis = row[2].text, let field = row[3].text,
                  let bucket = row[4].text.flatMap(LeadBucket.init(rawValue:)), let kind = row[5].text.flatMap(SkillRowKind.init(rawValue:)),
                  let member = row[6].text, let asOf = row[7].double, let count = row[8].int, let text = row[9].text,
                  let values = decodeSums(text) else { continue }
            let key = SkillGroupKey(basis: basis, place: "\(latitude),\(longitude)", field: field, bucket: bucket)
            let sums = DecayedSums(asOf: asOf, count: count, values: values)
            var group = ledger.groups[key] ?? SkillGroup()
            switch kind {
            case .source: group.sources[member] = sums
            case .pair: group.pairs[member] = sums
            case .consensus: group.consensus = sums
            case .brier: group.brier[member] = sums
            case .recent: group.recent[member] = sums
            case .coverage: group.coverage = sums
            case .backfill: group.backfill[member] = sums
            case .recentConsensus: group.recentConsensus = sums
            }
            ledger.groups[key] = group
        }
        return ledger
    }

    /// Writes the groups of `ledger` (one place's) that differ from `before`.
    static func save(_ ledger: SkillLedger, replacing before: SkillLedger, _ connection: Connection, latitude: Double, longitude: Double)
        throws(StoreError) {
        for (key, group) in ledger.groups where before.groups[key] != group {
            let head: [SQLValue] = [.real(latitude), .real(longitude), .text(key.basis), .text(key.field), .text(key.bucket.rawValue)]
            try connection.query("DELETE FROM skill WHERE latitude = ? AND longitude = ? AND basis = ? AND field = ? AND lead = ?", head)
            var rows: [(SkillRowKind, String, DecayedSums)] = group.sources.map { (.source, $0.key, $0.value) }
            rows += group.pairs.map { (.pair, $0.key, $0.value) }
            rows += group.brier.map { (.brier, $0.key, $0.value) }
            rows += group.recent.map { (.recent, $0.key, $0.value) }
            rows += group.backfill.map { (.backfill, $0.key, $0.value) }
            if let consensus = group.consensus { rows.append((.consensus, "", consensus)) }
            if let coverage = group.coverage { rows.append((.coverage, "", coverage)) }
            if let recent = group.recentConsensus { rows.append((.recentConsensus, "", recent)) }
            for (kind, member, sums) in rows {
                try connection.query("""
                    INSERT INTO skill(latitude, longitude, basis, field, lead, kind, member, as_of, count, sums)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, head + [.text(kind.rawValue), .text(member), .real(sums.asOf), .integer(Int64(sums.count)), .text(encodeSums(sums.values))])
            }
        }
    }

    /// Sums as text: their number, then `index=value` for each value that is not zero (histograms are mostly empty).
    static func encodeSums(_ values: [Double]) -> String {
        var text = String(values.count)
        for (index, value) in values.enumerated() where value != 0 { text += " \(index)=\(value)" }
        return text
    }

    /// Sums read back from `encodeSums`; nil when damaged.
    static func decodeSums(_ text: String) -> [Double]? {
        let parts = text.split(separator: " ")
        guard let first = parts.first, let size = Int(first), size >= 0, size < 100_000 else { return nil }
        var values = [Double](repeating: 0, count: size)
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "="), let index = Int(part[..<equals]), values.indices.contains(index),
                  let value = Double(part[part.index(after: equals)...]) else { return nil }
            values[index] = value
        }
        return values
    }
}
