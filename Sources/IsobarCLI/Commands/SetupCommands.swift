import IsobarCore
import IsobarRender

extension Commands {
    static let doctor = CommandSpec(
        name: "doctor", summary: "Check that Isobar can work here: configuration, keys, folders, plug-ins, each provider's network, the shared store, the clock",
        arguments: [],
        options: [
            .value("config", "FILE", "check this configuration file"),
            .value("cache-dir", "DIR", "the cache directory (default $XDG_CACHE_HOME/isobar)"),
            .value("shared-store", "URL", "the Redis server shared by many machines (default: shared_store, $ISOBAR_REDIS_URL)"),
            .value("timeout", "SECONDS", "the whole run, and each request in it, may take this long: 5, 30s, 1m (default 10 s, each request 3 s to connect and 6 s in all)"),
            .value("format", "FORMAT", "table or jsonl (one object per check)", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("help", "show this help"),
        ],
        discussion: "One line per check, with the fix when it fails: the configuration is valid; the bundled data is found; the cache and data folders can be written; each enabled provider has the key or contact it needs and answers one request for current conditions (name lookup, connection, TLS, an HTTP answer; a refused key shows as 401); plug-in programs on PATH are listed, never run unless enabled; the shared store answers when one is configured; the clock agrees with a provider's Date header (or it says it cannot tell). Exit 0 when every check passes, 5 when one fails.")

    static let setup = CommandSpec(
        name: "setup", summary: "Write a starter configuration: the providers that work without a key, MET Norway with a contact, keyed ones by variable name",
        arguments: [],
        options: [
            .value("contact", "EMAIL", "your e-mail address or URL, sent to MET Norway as its terms ask; adds MET Norway"),
            .value("key-env", "TYPE=VAR,...", "add the providers of these types that need a key, read from environment variable VAR (TYPE alone: its usual variable)"),
            .flag("write-key-values", "store the keys' values from those variables in the file (mode 0600) instead of their names"),
            .value("units", "SYSTEM", "metric (the default), imperial or standard", choices: UnitSystem.allCases.map(\.rawValue)),
            .flag("yes", "ask nothing: take the options given (the default when stdin is not a terminal)"),
            .flag("force", "replace an existing file, keeping the old one as FILE.bak (or .bak.2, .bak.3...)"),
            .value("config", "FILE", "write this file instead of $XDG_CONFIG_HOME/isobar/config.json"),
            .value("format", "FORMAT", "table or jsonl", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("help", "show this help"),
        ],
        discussion: "Writes $XDG_CONFIG_HOME/isobar/config.json (default ~/.config/isobar/config.json) in one step, mode 0600, and prints the next command to run. On a terminal it asks for what the options leave out. Keys are never written, only the names of the variables that hold them, unless --write-key-values asks. An existing file is kept unless --force.")

    static let config = CommandSpec(
        name: "config", summary: "Read or change one setting of your configuration file: isobar config [list|path|get KEY|set KEY VALUE] (list when alone)",
        arguments: [], optionalArguments: ["ACTION", "KEY", "VALUE"], actions: ConfigCommand.actionNames,
        options: [
            .value("config", "FILE", "read or change this file instead of yours"),
            .value("format", "FORMAT", "table or jsonl", choices: OutputFormat.lines.map(\.rawValue)),
            .flag("json", "the same as --format jsonl"),
            .flag("help", "show this help"),
        ],
        discussion: "KEY is one of \(ConfigSetting.names.joined(separator: ", ")), or ID.SETTING for provider ID (\(ConfigSetting.providerNames.joined(separator: ", "))). list shows every setting; path prints the file's location; get prints one value (the default when the file sets none, nothing when unset); set checks the value and changes only that member, keeping the rest of the file and its order (a file that does not exist yet is made from the bundled defaults).")
}
