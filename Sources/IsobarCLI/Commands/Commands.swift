import IsobarCore
import IsobarRender

/// The commands and their options, described once for parsing, validation and help.
enum Commands {
    /// Options every weather command takes: the groups below, in this order.
    static let common: [OptionSpec] = output + selection + sources + network + consensus + general

    /// How the answer is written: units, format.
    static let output: [OptionSpec] = [
        .value("units", "SYSTEM", "metric (°C, m/s, hPa, mm, km), imperial (°F, mph, inHg, in, mi) or standard (K, m/s, hPa, mm, m)",
               choices: UnitSystem.allCases.map(\.rawValue)),
        .value("format", "FORMAT", "table (for people, the default) or jsonl (one JSON object per line)", choices: OutputFormat.lines.map(\.rawValue)),
        .flag("json", "the same as --format jsonl"),
    ]

    /// Which providers are asked.
    static let selection: [OptionSpec] = [
        .value("providers", "IDS", "ask only these providers, comma-separated ids"),
    ]

    /// Where answers come from: a configuration file, the bundled recordings, cassettes.
    static let sources: [OptionSpec] = [
        .value("config", "FILE", "read this configuration file"),
        .flag("demo", "replay the bundled recordings: no network, no API key"),
        .value("record", "DIR", "ask live providers and save every exchange, secrets removed, as cassettes in DIR/<provider>"),
        .value("replay", "DIR", "answer every provider from the cassettes in DIR/<provider> (as written by --record)"),
    ]

    /// The network and the cache: how long to wait, what a cached answer may be, where the cache is and what it shares.
    static let network: [OptionSpec] = [
        .value("timeout", "SECONDS", "give up on providers after this long: 30, 30s, 2m (default 10 s)"),
        .value("max-age", "SECONDS", "use cached answers up to this old (90, 15m, 1h, 2d), whatever each provider's time to live"),
        .flag("refresh", "do not read the cache: ask every provider again (answers are still stored)"),
        .flag("offline", "use only the cache, never the network"),
        .value("cache-dir", "DIR", "keep the cache in DIR (default $XDG_CACHE_HOME/isobar)"),
        .value("shared-store", "URL", "share answers, rate limits, cooldowns and fetch leases with other machines through Redis at URL (redis://[user:password@]host:6379/0)"),
    ]

    /// How the answers are merged.
    static let consensus: [OptionSpec] = [
        .value("min-providers", "N", "fail (exit 4) unless at least N providers answer"),
        .value("weights", "ID=W,...", "weights of providers in the consensus, e.g. ID=2 (default 1 each; 0 leaves one out); auto: learned from the forecast archive; equal: as configured"),
        .flag("bias-correction", "with --weights auto: subtract each provider's learned bias before merging"),
    ]

    /// What every command takes.
    static let general: [OptionSpec] = [
        .flag("verbose", "also show problems with the cache and the rate-limit records (they never stop a command); short: -v"),
        .flag("help", "show this help"),
    ]

    /// Options of the commands that show weather by source and time: the common ones, with CSV among the formats.
    static let weather: [OptionSpec] = common.map { option in
        option.name != "format" ? option : .value(
            "format", "FORMAT", "table (for people, the default), jsonl (one JSON object per line) or csv (one row per source and time)",
            choices: OutputFormat.weather.map(\.rawValue))
    }

    /// `--plain`: sentences instead of tables.
    static let plain = OptionSpec.flag("plain", "sentences for screen readers: units spelled out, no tables, no colour (the default when TERM=dumb)")

    /// `--chart` and `--ascii`, with what the chart shows.
    static func chart(_ shows: String) -> [OptionSpec] {
        [.flag("chart", "also draw the next 48 hours: \(shows)"),
         .flag("ascii", "draw the chart with ASCII characters only (the default when the locale is not UTF-8)")]
    }

    /// What the chart of the forecast and home views shows.
    static let forecastChart = "temperature with the providers' range, precipitation with its chance"

    static let compare = CommandSpec(
        name: "compare", summary: "Current conditions from every provider side by side, with the consensus and spread",
        arguments: ["PLACE"], options: chart("each provider's temperature as its own line") + [plain] + weather,
        discussion: "PLACE is a known place name (Minsk, \"New York\", \"London, GB\") or coordinates such as 53.9,27.57.")

    static let now = CommandSpec(
        name: "now", summary: "Current conditions: the consensus first, then each provider's temperature",
        arguments: ["PLACE"], options: [plain, AlertsCommand.failOn] + weather,
        discussion: "PLACE is a known place name or coordinates such as 53.9,27.57. A last line says when precipitation is likely in the next 12 hours.")

    static let forecast = CommandSpec(
        name: "forecast", summary: "The consensus forecast by day (and by hour with --hourly), with the providers' range",
        arguments: ["PLACE"],
        options: [.value("days", "N", "days to show, 1 to 16 (default 7)"), .flag("hourly", "also show hour by hour")]
            + chart(forecastChart) + [plain] + weather,
        discussion: "Days are the place's local calendar days. Providers without days of their own contribute days computed from their steps, complete days only.")

    static let batch = CommandSpec(
        name: "batch", summary: "Many places from a file or stdin, one per line, answered as JSON lines as they complete",
        arguments: [], optionalArguments: ["FILE"],
        options: [
            .value("kind", "KIND", "current (the default), hourly, daily, or air (the air sources' air line)", choices: BatchKind.allCases.map(\.rawValue)),
            .value("days", "N", "hourly and daily: days to give, 1 to 16 (default 7); air: the hours of that many days"),
            .value("jobs", "N", "calls in flight to each provider at once, 1 to 256 (default 8), over up to 2 × N places; each provider also keeps to its own limit"),
            .value("order", "ORDER", "completion (as each place completes, the default) or input (input order, through a bounded buffer)",
                   choices: BatchOrder.allCases.map(\.rawValue)),
            .value("deadline", "SECONDS", "stop taking places after this long for the whole run: 90, 15m, 2h (default none)"),
            .flag("quiet", "no progress line on stderr (there is one only when stderr is a terminal other than stdout's)"),
            .value("format", "FORMAT", "jsonl (the default) or csv (bad lines as input_error rows, the summary on stderr)",
                   choices: [OutputFormat.jsonl.rawValue, OutputFormat.csv.rawValue]),
            .flag("json", "the same as --format jsonl"),
        ] + common.filter { !["format", "json", "timeout", "record", "min-providers"].contains($0.name) },
        discussion: "FILE (- or none: stdin) holds one place per line: a name (Minsk, \"Paris, US\"), coordinates (53.9,27.57), or a JSON object {\"id\": \"a1\", \"place\": \"Minsk\"} or {\"id\": \"a1\", \"latitude\": 53.9, \"longitude\": 27.57} whose id is echoed on every line. Blank lines are skipped; a bad line is an input_error line and the run goes on; a summary line ends the output. Rate limits and Retry-After are waited for. Ctrl-C stops taking places, prints the summary and exits 130; a re-run takes every fresh answer from the cache.")

    /// `isobar PLACE`: not listed as a command; the home view of any place.
    static let place = CommandSpec(
        name: "PLACE", summary: "The home view of a place: now, the next hours, the next days",
        arguments: ["PLACE"], options: chart(forecastChart) + [plain] + common,
        discussion: "isobar Minsk is the home view of Minsk; a name that is also a command (cache, home...) needs isobar now NAME.")

    static let cache = CommandSpec(
        name: "cache", summary: "Show, clear or prune the cache: isobar cache [stats|clear|prune] (stats when alone)",
        arguments: [], optionalArguments: ["ACTION"], actions: CacheCommand.actionNames,
        options: [
            .value("cache-dir", "DIR", "the cache directory (default $XDG_CACHE_HOME/isobar)"),
            .value("config", "FILE", "read this configuration file"),
            .value("shared-store", "URL", "the Redis server shared by many machines (default: shared_store, $ISOBAR_REDIS_URL)"),
            .flag("shared", "clear: delete the shared store's answers (found by SCAN under isobar:v1:) instead of the local ones"),
            .value("older-than", "SECONDS", "prune: remove entries fetched longer ago than this: 3600, 1h, 2d (default 1d, the stale limit)"),
            .value("format", "FORMAT", "table or jsonl", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("verbose", "also show problems with the cache and the rate-limit records"),
            .flag("help", "show this help"),
        ],
        discussion: "stats counts entries per provider and kind, in the local cache and in the shared store when one is configured; clear deletes every cached answer (with --shared: every answer in the shared store); prune deletes old answers and rate-limit records no window needs.")

    static let archive = CommandSpec(
        name: "archive", summary: "The forecast archive of live answers: isobar archive [stats|prune|clear|export|import FILE] (stats when alone)",
        arguments: [], optionalArguments: ["ACTION", "FILE"], actions: ArchiveCommand.actionNames,
        options: [
            .value("config", "FILE", "read this configuration file"),
            .value("older-than", "SECONDS", "prune: remove what is older than this: 3600, 1h, 30d (default archive_days)"),
            .value("units", "SYSTEM", "export: metric, imperial or standard (default from the configuration)",
                   choices: UnitSystem.allCases.map(\.rawValue)),
            .value("format", "FORMAT", "table or jsonl (export is always JSON lines)", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("help", "show this help"),
        ],
        discussion: "Every forecast fetched live is kept in your data file (beside your cities) by provider, place, issue hour and valid time, with its lead time, for archive_days days (default 60; 0 keeps none). stats counts it; prune removes old entries (what was learned from them stays, fading); clear removes them all and the skill record learned from them (your cities and home stay); export writes it as JSON lines for analysis; import FILE (- for stdin) adds another archive's export, skipping what is already archived, and folds it into the skill record. A bad line of an import is reported with its line number, nothing is imported, and the exit code is 6.")

    static let verify = CommandSpec(
        name: "verify", summary: "How each provider's archived forecasts compare with what was observed: isobar verify [PLACE] [--field F]",
        arguments: [], optionalArguments: ["PLACE"],
        options: [
            .value("field", "FIELD", "the quantity checked (default temperature, which also shows the precipitation chance's Brier score)",
                   choices: VerifyScores.fields),
            .value("config", "FILE", "read this configuration file"),
            .flag("demo", "verify the recorded history shipped with the demo, not your archive"),
            .value("units", "SYSTEM", "metric, imperial or standard (default from the configuration)", choices: UnitSystem.allCases.map(\.rawValue)),
            .value("format", "FORMAT", "table, jsonl or csv (one row per score)", choices: OutputFormat.weather.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("chart", "also draw each provider's mean absolute error by lead time"),
            .flag("ascii", "draw the chart with ASCII characters only (the default when the locale is not UTF-8)"),
            .flag("help", "show this help"),
        ],
        discussion: "Offline, from the forecast archive: every archived forecast value paired with the observation nearest its valid time (within 30 minutes), errors summed per provider and lead time (0-6h, 6-24h, 1-3d, 3-7d, 7-16d), a pair's weight halving every 14 days of age. Observations are METAR reports; where no station reports, a provider's own current values stand in as a proxy, scored apart and labelled. The table shows the mean absolute error and the Brier score of the precipitation chance (against precipitation reported or not); --json and --format csv add bias, RMSE, the hit rate (within 2 °C for temperatures), the skill against persistence and the Brier skill.")

    static let providers = CommandSpec(
        name: "providers",
        summary: "The configured providers with their limits, cooldown and breaker: isobar providers [list|reset [ID]|check ID [PLACE]|new NAME|enable NAME|disable NAME] (list when alone)",
        arguments: [], optionalArguments: ["ACTION", "ID", "PLACE"], actions: ProvidersCommand.actionNames,
        options: [
            .flag("available", "list the plug-in programs (isobar-provider-NAME) found on PATH and in $XDG_DATA_HOME/isobar/providers, without running them"),
            .value("config", "FILE", "read this configuration file (enable, disable: change it instead of yours)"),
            .flag("demo", "use the bundled replay configuration"),
            .value("replay", "DIR", "check: answer the provider from the cassettes in DIR/<provider> (as written by --record)"),
            .value("timeout", "SECONDS", "check: the whole check may take this long: 30, 30s, 2m (default none: a plug-in's fetch 30 s, a request its own limits)"),
            .value("lang", "LANGUAGE", "new: python or sh (an exec plug-in) or swift (a compiled adapter)", choices: ProviderSkeleton.Language.allCases.map(\.rawValue)),
            .value("dir", "DIR", "new: write the skeleton into DIR (default ./isobar-provider-NAME, or Providers/Name for swift)"),
            .value("cache-dir", "DIR", "the cache directory (default $XDG_CACHE_HOME/isobar)"),
            .value("shared-store", "URL", "show the use of limits shared through this Redis server (default: shared_store, $ISOBAR_REDIS_URL)"),
            .value("format", "FORMAT", "table or jsonl", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("verbose", "also show problems with the cache and the rate-limit records"),
            .flag("help", "show this help"),
        ],
        discussion: "list shows each provider; reset clears the cooldown and closes the breaker of provider ID, or of every provider without ID; check ID [PLACE] runs the conformance rules and the report validation against provider ID (on PLACE, by default the first bundled place it covers) and prints each rule's verdict, exiting 5 when one fails; new NAME --lang python|sh|swift writes a provider skeleton with a recorded fixture that passes check; --available lists the plug-in programs found, never running one; enable NAME adds an entry for the plug-in program isobar-provider-NAME (or turns a disabled entry NAME back on) in your configuration file, and only then is it run; disable NAME keeps the entry with \"enabled\": false.")

    static let search = CommandSpec(
        name: "search", summary: "Find places by name, offline, in any script; --add puts the best match in your cities",
        arguments: ["TEXT"],
        options: [.value("limit", "N", "show at most N places (1 to 50, default 10)"), .flag("add", "add the best match to your cities and show it")]
            + common,
        discussion: "Matching ignores case and accents, knows other names and scripts (Минск, 東京), forgives one typo in words of 4+ letters, and takes a qualifier after a comma: \"Paris, US\", \"Paris, TX\". Names the offline gazetteer lacks are looked up with the configured providers that find places by name, when the network is allowed.")

    static let cities = CommandSpec(
        name: "cities", summary: "Your cities with the consensus temperature and condition now; add, remove or reorder them",
        arguments: [], optionalArguments: ["ACTION", "PLACE", "TO"], actions: CitiesCommand.actionNames, options: [plain] + common,
        discussion: "isobar cities lists them (the first run starts with Minsk and Moscow); isobar cities add PLACE; isobar cities remove|rm PLACE|NUMBER; isobar cities move FROM TO (numbers, names or coordinates). They are kept in $XDG_DATA_HOME/isobar, never in the cache.")

    static let home = CommandSpec(
        name: "home", summary: "Show your home place (now, the next hours, the next days), set it or unset it",
        arguments: [], optionalArguments: ["ACTION", "PLACE"], actions: HomeCommand.actionNames, options: chart(forecastChart) + [plain] + common,
        discussion: "isobar home set PLACE; isobar home unset. isobar with no arguments shows the same; without a home it shows your first city.")

    static let completions = CommandSpec(
        name: "completions", summary: "The shell completion script for bash, zsh or fish",
        arguments: ["SHELL"], actions: CompletionShell.allCases.map(\.rawValue),
        options: [.value("words", "KIND", "print the words the script offers for KIND, one per line: places (home, cities, recent places) or providers (the configured ids)",
                         choices: CompletionWords.allCases.map(\.rawValue)),
                  .flag("help", "show this help")],
        discussion: "bash: isobar completions bash > ~/.local/share/bash-completion/completions/isobar; zsh: write _isobar into a folder of $fpath; fish: isobar completions fish > ~/.config/fish/completions/isobar.fish. scripts/install.sh installs all three.")
}
