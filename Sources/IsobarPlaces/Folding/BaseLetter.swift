extension SearchFolding {
    /// The ASCII letter under a Latin letter's diacritics, in the letter's case (`É` → `E`, `ñ` → `n`, `u` with a
    /// combining diaeresis → `u`); nil for anything else (other scripts, symbols, `ß`, `æ`).
    public static func baseLetter(of character: Character) -> Character? {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first,
              scalars.dropFirst().allSatisfy({ [.nonspacingMark, .enclosingMark, .spacingMark].contains($0.properties.generalCategory) })
        else { return nil }
        if first.isASCII { return first.properties.isAlphabetic ? Character(first) : nil }
        let lower = Array(first.properties.lowercaseMapping.unicodeScalars)
        guard lower.count == 1, let folded = foldingTable[lower[0].value], folded.unicodeScalars.count == 1,
              let base = folded.unicodeScalars.first, base.isASCII, base.properties.isAlphabetic else { return nil }
        return first.properties.isUppercase ? Character(base.properties.uppercaseMapping) : Character(base)
    }
}
