/// The language a reader wants an alert's text in, and the choice among the languages a CAP message was sent in: the
/// wanted one, else English, else the message's first.
public struct AlertLanguage: Sendable, Equatable {
    /// How a message's language was chosen.
    public enum Choice: String, Sendable, Equatable {
        /// The language the reader wants.
        case wanted
        /// English, the message having none in the reader's language (or the reader saying none).
        case english
        /// The message's first language, it having neither the reader's nor English.
        case first
    }

    /// The wanted language's primary subtag in lower case (`nb`, `en`); nil when the reader's locale says none.
    public var wanted: String?

    /// A preference for `wanted` (a language tag or locale name such as `nb-NO` or `nb_NO.UTF-8`); nil for none.
    public init(wanted: String?) { self.wanted = wanted.flatMap(Self.primary) }

    /// The locale's language: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set, as POSIX orders them; `C` and
    /// `POSIX` say none.
    public static func fromEnvironment(_ environment: [String: String]) -> AlertLanguage {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return AlertLanguage(wanted: locale)
    }

    /// The primary subtag of a tag or locale name, lower case (`nb_NO.UTF-8` → `nb`); nil for `C`, `POSIX` or nothing.
    static func primary(_ tag: String) -> String? {
        let primary = tag.prefix { $0.isLetter }.lowercased()
        return primary.isEmpty || primary == "c" || primary == "posix" ? nil : primary
    }

    /// True when two primary subtags name one language (Norwegian's `no`, `nb` and `nn` are read as one: MET Norway says `no`).
    static func same(_ first: String, _ second: String) -> Bool {
        let norwegian: Set<String> = ["no", "nb", "nn"]
        return first == second || (norwegian.contains(first) && norwegian.contains(second))
    }

    /// The language to show among `languages` (tags, in the message's order; not empty), and why it was chosen.
    public func choose(_ languages: [String]) -> (language: String, choice: Choice) {
        if let wanted, let found = languages.first(where: { Self.primary($0).map { Self.same($0, wanted) } ?? false }) {
            return (found, .wanted)
        }
        if let english = languages.first(where: { Self.primary($0) == "en" }) { return (english, wanted == nil ? .wanted : .english) }
        return (languages.first ?? "en-US", .first)
    }

    /// What to say beside an alert shown in `language`: nil when it is in the reader's language (or the reader named none and
    /// it is English); else `in English: none in nb` or `in no: none in nb or English`.
    public func note(language: String, choice: Choice) -> String? {
        switch choice {
        case .wanted: return nil
        case .english: return wanted.map { "in English: the issuer sent none in \($0)" }
        case .first: return "in \(language): the issuer sent none in " + (wanted.map { "\($0) or English" } ?? "English")
        }
    }
}
