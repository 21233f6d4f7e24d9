import FoundationEssentials
import IsobarCore

/// `learn_on_first_use`: what `--weights auto` does the first time it meets a place with nothing learned near it.
public enum FirstUseLearning: String, Sendable, CaseIterable {
    /// Ask on a terminal; elsewhere, name `isobar learn PLACE` in a one-line note and fetch nothing (the default).
    case ask
    /// Learn at once, as `isobar learn PLACE` does.
    case always
    /// Neither ask nor say: the record fills from the archive alone.
    case never
}

extension CommandContext {
    /// The first time learned weights meet `place` with nothing learned near it, offers to learn the past days at once
    /// (`isobar learn`): asks on a terminal, learns when told to (or when `learn_on_first_use` is `always`), and otherwise
    /// says in one line which command would; never fetches without consent. Only where past forecasts can be had: an
    /// observations entry and a source that publishes its past forecasts. Returns the setup with the record read again
    /// when something was learned.
    func learnOnFirstUse(_ setup: WeatherSetup, place: Place, query: String, _ parsed: Invocation) async -> WeatherSetup {
        guard let learning = setup.consensus.learning, !setup.demo, learning.record.fields.isEmpty,
              setup.configuration.observations != nil,
              setup.bindings.contains(where: { $0.provider is any PastForecasting }) else { return setup }
        let days = LearnCommand.defaultDays
        let command = "isobar learn " + (query.contains(" ") ? "'\(query)'" : query)
        switch setup.configuration.learnOnFirstUse {
        case .never:
            return setup
        case .ask:
            guard prompter.isTerminal else {
                errors.write("isobar: note: nothing is learned near \(place.name) yet, so the weights are equal; "
                    + "`\(command)` learns the past \(days) days at once\n")
                return setup
            }
            errors.write("Nothing is learned near \(place.name) yet. Learn from the past \(days) days now "
                + "(past forecasts from Open-Meteo, station reports from the IEM archive)? [y/N] ")
            let answer = String((prompter.readAnswer() ?? "").filter { !$0.isWhitespace }).lowercased()
            guard answer == "y" || answer == "yes" else { return setup }
        case .always:
            break
        }
        do {
            guard let learned = try await Backfill(context: self, invocation: parsed)
                .learn(place, configuration: setup.configuration, days: days, timeout: setup.options.timeoutSeconds) else { return setup }
            errors.write("isobar: learned \(learned.tally.folded) past forecast(s) of \(learned.gathered.sources.joined(separator: ", ")) "
                + "near \(place.name) against \(learned.station)\n")
        } catch {
            warn("nothing learned near \(place.name): \(error)")
            return setup
        }
        return await self.learned(setup, near: place)
    }
}
