/// A command line that cannot be understood; exits with the usage code.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what is wrong.
    public let message: String
    /// Creates the error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Parses arguments against a `CommandSpec`: `--name value`, `--name=value`, flags, positionals, and `--` to end options.
public enum ArgumentParser {
    /// Parses `arguments` (without the command name) for `command`, whose full option list is `options`.
    public static func parse(_ arguments: [String], command: CommandSpec, options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-", !looksNumeric(argument) else {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            guard argument.hasPrefix("--") else {
                if let long = shortOptions[argument], options.contains(where: { $0.name == long }) {
                    parsed.options[long] = ""
                    continue
                }
                throw UsageError("unknown option '\(argument)' for '\(command.name)'; options are long, e.g. --help")
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inlineValue = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let spec = options.first(where: { $0.name == name }) else {
                let suggestion = Spelling.closest(to: name, in: options.map(\.name)).map { "; did you mean --\($0)?" } ?? ""
                throw UsageError("unknown option '--\(name)' for '\(command.name)'\(suggestion)")
            }
            guard spec.valueName != nil else {
                if inlineValue != nil { throw UsageError("option --\(name) takes no value") }
                parsed.options[name] = ""
                continue
            }
            var value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("option --\(name) needs a value (\(spec.valueName!))") }
                value = arguments[index]
                index += 1
            }
            if let choices = spec.choices {
                value = value.lowercased()
                guard choices.contains(value) else {
                    let suggestion = Spelling.closest(to: value, in: choices).map { "; did you mean '\($0)'?" } ?? ""
                    throw UsageError("invalid value '\(value)' for --\(name): expected \(choices.joined(separator: ", "))\(suggestion)")
                }
            }
            parsed.options[name] = value
        }
        guard !parsed.has("help") else { return parsed }
        if parsed.positionals.count < command.arguments.count {
            let missing = command.arguments[parsed.positionals.count...].joined(separator: " ")
            throw UsageError("'\(command.name)' needs \(missing); see 'isobar \(command.name) --help'")
        }
        let most = command.arguments.count + command.optionalArguments.count
        if parsed.positionals.count > most {
            let extra = parsed.positionals[most...].joined(separator: " ")
            let hint = command.arguments.isEmpty ? "" : " (quote a place name with spaces: \"New York\")"
            throw UsageError("unexpected argument '\(extra)' for '\(command.name)'\(hint)")
        }
        return parsed
    }

    /// Short flags and the long option each stands for.
    static let shortOptions = ["-h": "help", "-v": "verbose"]

    /// `-23.5,-46.6` or `-5` are values, not options.
    private static func looksNumeric(_ argument: String) -> Bool {
        guard let second = argument.dropFirst().first else { return false }
        return second.isNumber || second == "."
    }
}

/// Finds the closest spelling among candidates.
public enum Spelling {
    /// The candidate within edit distance 2 (or a third of the word) of `word`, nearest first.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = max(2, word.count / 3)
        return candidates
            .map { ($0, distance(word.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance between two strings, by characters.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
