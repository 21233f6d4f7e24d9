import IsobarCore
import IsobarRender

/// The settings `config` reads and changes, named as on its command line: top-level ones, `contact` (every entry that takes one)
/// and `ID.SETTING`.
struct ConfigSettings {
    /// What the command runs with (the registry says which provider types take a contact).
    let context: CommandContext

    /// A setting named on the command line: a top-level one, the contact of every entry that takes one, or one entry's.
    enum Key {
        /// A top-level member.
        case topLevel(ConfigSetting)
        /// `contact`: set on every entry whose type takes a contact.
        case contact(ConfigSetting)
        /// `ID.SETTING`: a member of the entry at `index`.
        case provider(ConfigSetting, index: Int)
    }

    /// The setting `key` names, or a usage error with the nearest spelling.
    func key(_ key: String, in text: ConfigurationText, path: String) throws(UsageError) -> Key {
        if let setting = ConfigSetting.topLevel.first(where: { $0.name == key }) {
            return setting.name == "contact" ? .contact(setting) : .topLevel(setting)
        }
        guard let dot = key.lastIndex(of: ".") else {
            let suggestion = Spelling.closest(to: key, in: ConfigSetting.names).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("unknown setting '\(key)'\(suggestion); settings are \(ConfigSetting.names.joined(separator: ", ")) and ID.SETTING "
                + "(\(ConfigSetting.providerNames.joined(separator: ", ")))")
        }
        let id = String(key[..<dot])
        let name = String(key[key.index(after: dot)...])
        guard let index = text.entry(id) else {
            let ids = text.providers.indices.compactMap { entryID(text, $0) }
            let suggestion = Spelling.closest(to: id, in: ids).map { "; did you mean '\($0)'?" } ?? ""
            throw UsageError("no provider '\(id)' in \(path)\(suggestion); providers are \(ids.joined(separator: ", "))")
        }
        guard let setting = ConfigSetting.provider.first(where: { $0.name == name }) else {
            let suggestion = Spelling.closest(to: name, in: ConfigSetting.providerNames).map { "; did you mean '\(id).\($0)'?" } ?? ""
            throw UsageError("unknown provider setting '\(name)'\(suggestion); they are \(ConfigSetting.providerNames.joined(separator: ", "))")
        }
        return .provider(setting, index: index)
    }

    /// Every top-level setting, then each entry's settings that it sets or that have a default.
    func allKeys(_ text: ConfigurationText) -> [Key] {
        let top = ConfigSetting.topLevel.map { $0.name == "contact" ? Key.contact($0) : .topLevel($0) }
        let entries = text.providers.indices.flatMap { index in
            ConfigSetting.provider.filter { text.member($0.name, ofEntry: index) != nil || $0.defaultValue != nil }
                .map { Key.provider($0, index: index) }
        }
        return top + entries
    }

    /// A setting's full key, its description and its value in the file (nil when the file sets none).
    func describe(_ key: Key, _ text: ConfigurationText) -> (String, ConfigSetting, JSONOutput?) {
        switch key {
        case .topLevel(let setting): return (setting.name, setting, text.member(setting.name))
        case .contact(let setting): return (setting.name, setting, contactEntries(text).lazy.compactMap { text.member("contact", ofEntry: $0) }.first)
        case .provider(let setting, let index): return ("\(entryID(text, index) ?? "?").\(setting.name)", setting, text.member(setting.name, ofEntry: index))
        }
    }

    /// The entries whose type takes a contact.
    func contactEntries(_ text: ConfigurationText) -> [Int] {
        text.providers.indices.filter { index in
            guard case .string(let type) = text.member("type", ofEntry: index) else { return false }
            return context.registry.factory(for: type)?.contactVariable != nil
        }
    }

    /// The id of the entry at `index` (its type when it has no id).
    private func entryID(_ text: ConfigurationText, _ index: Int) -> String? {
        guard case .string(let id) = text.member("id", ofEntry: index) ?? text.member("type", ofEntry: index) else { return nil }
        return id
    }
}
