/// The terms of services that ask every client for a contact (an e-mail address or URL) in its `User-Agent`: MET Norway,
/// the US National Weather Service. What counts as a contact, and what to say when none is given.
public enum ContactTerms {
    /// `text` as a contact: nil when it is empty, blank, or holds a control character (a line break would end the header
    /// it is sent in and start another).
    public static func contact(_ text: String?) -> String? {
        guard let text, !text.allSatisfy(\.isWhitespace),
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return text
    }

    /// Not set up: `asking` (the clause's subject and verb, e.g. "MET Norway's terms ask") wants a contact; says how to give
    /// one (`variable`, or the entry `id` of the configuration `file`, and whether that file exists yet).
    public static func missing(_ asking: String, id: String, variable: String, file: (path: String, exists: Bool)?) -> ProviderError {
        let entry = file.map { file in
            file.exists ? "the \"\(id)\" entry of \(file.path)" : "a \"\(id)\" entry of \(file.path) (isobar setup writes that file)"
        } ?? "its entry of the configuration file"
        return ProviderError(.notConfigured, "\(asking) for a contact (an e-mail address or URL): set \(variable), "
                             + "or \"contact\" in \(entry)", setting: variable)
    }
}
