import IsobarCore

/// The characters the user's terminal can show, from the locale: all of Unicode when it is UTF-8, ASCII otherwise.
public enum TextCharset: Sendable, Equatable {
    /// A UTF-8 locale: text as it is.
    case utf8
    /// Any other locale (`C`, `POSIX`, `en_US.ISO-8859-1`, or none set): ASCII only.
    case ascii

    /// The charset of an environment: UTF-8 when the first of `LC_ALL`, `LC_CTYPE`, `LANG` that is set and not empty names
    /// UTF-8 (`en_GB.UTF-8`, `C.utf8`), ASCII otherwise. The one place Isobar reads the locale.
    public init(environment: [String: String]) {
        guard let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            self = .ascii
            return
        }
        let lowered = locale.lowercased()
        self = lowered.containsBytes("utf-8") || lowered.containsBytes("utf8") ? .utf8 : .ascii
    }
}
