import FoundationEssentials
import IsobarConsensus
import IsobarCore

/// The members of a `consensus` line.
extension JSONLinesRenderer {
    mutating func consensusMembers(_ consensus: ConsensusResult, _ answered: Answers, place: Place) {
        let (reports, failed, skipped) = (answered.reports, answered.failed, answered.skipped)
        let offset = consensus.current?.utcOffsetSeconds ?? consensus.daily.first?.utcOffsetSeconds
            ?? reports.lazy.compactMap(\.utcOffsetSeconds).first ?? place.utcOffsetSeconds ?? 0
        json.key("providers")
        json.strings(consensus.providers)
        json.key("failed_providers")
        json.strings(inDisplayOrder(failed, id: { $0 }))
        json.key("skipped_providers")
        json.strings(inDisplayOrder(skipped, id: { $0 }))
        json.key("outcomes")
        outcomesArray(consensus, answered)
        json.key("excluded")
        json.strings(consensus.excluded)
        json.key("zone")
        json.string(consensus.zone.description)
        json.key("zone_fallback_reason")
        json.string(consensus.zoneFallbackReason)
        json.key("utc_offset_seconds")
        json.integer(offset)
        json.key("timezone")
        json.string(consensus.zone.identifier ?? reports.lazy.compactMap(\.timeZoneIdentifier).first)
        json.key("units")
        json.serialized(unitsText)
        if let weighting = consensus.weighting {
            json.key("weighting")
            json.string(weighting.rawValue)
            json.key("learned_basis")
            json.beginArray()
            for provider in consensus.providers {
                json.beginObject()
                json.key("provider")
                json.string(provider)
                json.key("basis")
                json.string((consensus.learnedBasis[provider] ?? LearnedBasis.none).rawValue)
                json.endObject()
            }
            json.endArray()
        }
        if let verdict = Verdict.judge(inDisplayOrder(answered.errors, id: \.id), answered: reports.count, context: context) {
            json.key("diagnosis")
            verdictObject(verdict)
        }
        let (wantsCurrent, days, hours) = context.view.sections
        if wantsCurrent {
            json.key("current")
            if let current = consensus.current { consensusHour(current) } else { json.null() }
        }
        if days > 0 {
            let window = ForecastWindow(reports: reports, now: context.now, days: days)
            json.key("daily")
            json.beginArray()
            for day in window.dates(consensus.daily, utcOffsetSeconds: offset, date: \.date) { consensusDay(day) }
            json.endArray()
            if let hours {
                json.key("hourly")
                json.beginArray()
                for hour in window.hours(consensus.hourly, time: \.time).prefix(hours) { consensusHour(hour) }
                json.endArray()
            }
        }
    }

    /// Why nothing, or too little, answered, and what to do next (see `Verdict`).
    private mutating func verdictObject(_ verdict: Verdict) {
        json.beginObject()
        json.key("cause")
        json.string(verdict.cause.rawValue)
        json.key("answered")
        json.integer(verdict.answered)
        json.key("needed")
        json.integer(verdict.needed)
        json.key("message")
        json.string(verdict.summary)
        json.key("next_step")
        json.string(verdict.nextStep)
        json.key("settings")
        json.strings(verdict.settings)
        json.endObject()
    }

    /// Every provider asked, in display order: how its turn ended, its weight in the merge and where its answer came from.
    private mutating func outcomesArray(_ consensus: ConsensusResult, _ answered: Answers) {
        json.beginArray()
        for (id, outcome) in inDisplayOrder(answered.outcomes, id: \.0) {
            json.beginObject()
            json.key("provider")
            json.string(id)
            json.key("status")
            json.string(outcome.rawValue)
            json.key("weight")
            json.number(consensus.weights[id])
            json.key("source")
            if let report = answered.reports.first(where: { $0.providerID == id }) { sourceObject(report.source) } else { json.null() }
            json.key("family")
            json.string(consensus.families[id])
            json.key("merge_weight")
            json.number(consensus.mergeWeights[id].map(OutputNumber.round3))
            json.endObject()
        }
        json.endArray()
    }

    /// A merged hour: plain numbers under the same keys as a provider's hour, the merge's details under `merged`.
    private mutating func consensusHour(_ hour: ConsensusHour) {
        json.beginObject()
        json.key("time")
        json.isoTime(hour.time, utcOffsetSeconds: hour.utcOffsetSeconds)
        json.key("lead_hours")
        json.number(OutputNumber.round3(hour.leadHours))
        json.key("confidence")
        json.number(hour.confidence.map(OutputNumber.round3))
        json.key("condition")
        json.string(hour.condition?.value.id)
        for quantity in Quantity.weather {
            json.key(text: quantity.rawValue)
            number(hour[quantity]?.value, quantity.dimension)
        }
        json.key("merged")
        json.beginObject()
        json.key("condition")
        conditionVotes(hour.condition)
        for quantity in Quantity.weather {
            json.key(text: quantity.rawValue)
            merged(hour[quantity], quantity.dimension, offset: 0)
        }
        json.endObject()
        json.endObject()
    }

    /// A merged day: plain numbers under the same keys as a provider's day, the merge's details under `merged`.
    private mutating func consensusDay(_ day: ConsensusDayV1) {
        let offset = day.utcOffsetSeconds
        json.beginObject()
        json.key("date")
        json.isoDate(day.date)
        json.key("start")
        json.isoTime(day.start, utcOffsetSeconds: offset)
        json.key("hours")
        json.number(day.hours)
        json.key("confidence")
        json.number(day.confidence.map(OutputNumber.round3))
        json.key("condition")
        json.string(day.condition?.value.id)
        for quantity in DailyQuantity.allCases {
            json.key(text: quantity.rawValue)
            value(day[quantity]?.value, quantity.dimension, offset: offset)
        }
        let phase = day.moonPhase
        json.key("moon_phase")
        json.number(OutputNumber.round3(phase.fraction))
        json.key("moon_phase_name")
        json.string(phase.name)
        json.key("moon_illumination")
        json.number(OutputNumber.round3(phase.illumination))
        json.key("merged")
        json.beginObject()
        json.key("condition")
        conditionVotes(day.condition)
        for quantity in DailyQuantity.allCases {
            json.key(text: quantity.rawValue)
            merged(day[quantity], quantity.dimension, offset: offset)
        }
        json.endObject()
        json.endObject()
    }

    /// How the condition was voted; the winner is the plain `condition` string beside it.
    private mutating func conditionVotes(_ merged: MergedConditionV1?) {
        guard let merged else { return json.null() }
        json.beginObject()
        json.key("votes")
        json.beginArray()
        for vote in merged.votes {
            json.beginObject()
            json.key("provider")
            json.string(vote.provider)
            json.key("condition")
            json.string(vote.condition.id)
            json.endObject()
        }
        json.endArray()
        json.key("missing")
        json.strings(merged.missing)
        json.key("demoted_from")
        json.string(merged.demotedFrom?.id)
        json.key("implausible")
        json.bool(merged.isImplausible)
        json.key("confidence")
        json.number(OutputNumber.round3(merged.confidence))
        json.endObject()
    }

    /// A difference of a quantity (a spread, a deviation) in the chosen units, rounded to 3 decimals.
    private mutating func difference(_ value: Double, _ dimension: Dimension) {
        json.number(OutputNumber.round3(context.units.convertDifference(value, dimension)))
    }

    /// How a quantity was merged; its value is the plain number beside it, under the quantity's own key.
    private mutating func merged(_ merged: MergedField?, _ dimension: Dimension, offset: Int) {
        guard let merged else { return json.null() }
        let inputs = merged.inputs
        let learned = merged.learned
        json.beginObject()
        json.key("min")
        value(merged.min, dimension, offset: offset)
        json.key("max")
        value(merged.max, dimension, offset: offset)
        json.key("spread")
        difference(merged.spread, dimension)
        json.key("mad")
        difference(merged.medianAbsoluteDeviation, dimension)
        json.key("confidence")
        json.number(OutputNumber.round3(merged.confidence))
        json.key("providers")
        json.strings(inputs.lazy.filter { !$0.isOutlier }.map(\.provider))
        json.key("outliers")
        json.strings(inputs.lazy.filter(\.isOutlier).map(\.provider))
        json.key("missing")
        json.strings(merged.missing)
        json.key("inputs")
        json.beginArray()
        for input in inputs {
            json.beginObject()
            json.key("provider")
            json.string(input.provider)
            json.key("value")
            value(input.value, dimension, offset: offset)
            json.key("weight")
            json.number(input.weight)
            json.key("origin")
            json.string(Self.origin(input.origin))
            json.key("outlier")
            json.bool(input.isOutlier)
            if let learned {
                json.key("learned_weight")
                json.number(OutputNumber.round3(learned.weights[input.provider] ?? 0))
                json.key("correction")
                difference(learned.corrections[input.provider] ?? 0, dimension)
            }
            json.endObject()
        }
        json.endArray()
        if let learned {
            json.key("interval_80")
            json.beginArray()
            value(learned.low, dimension, offset: offset)
            value(learned.high, dimension, offset: offset)
            json.endArray()
            json.key("interval_basis")
            json.string(learned.basis.rawValue)
            json.key("weighting")
            json.string(learned.weighting.rawValue)
        }
        json.key("disagreement")
        if let disagreement = merged.disagreement, inputs.count >= 2 {
            json.beginObject()
            json.key("difference")
            difference(disagreement.difference, dimension)
            json.key("floor")
            difference(disagreement.floor, dimension)
            json.key("exceeds_floor")
            json.bool(disagreement.exceedsFloor)
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
    }
}
