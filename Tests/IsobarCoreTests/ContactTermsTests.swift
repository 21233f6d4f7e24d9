import IsobarCore
import Testing

/// What counts as a contact for services whose terms ask for one, and what is said when none is given.
@Suite struct ContactTermsTests {
    @Test func aContactIsOneLineOfText() {
        #expect(ContactTerms.contact("ops@example.org") == "ops@example.org")
        #expect(ContactTerms.contact("https://example.org/contact") == "https://example.org/contact")
        #expect(ContactTerms.contact(nil) == nil)
        #expect(ContactTerms.contact("") == nil)
        #expect(ContactTerms.contact("  \t") == nil)
        // A line break would end the User-Agent header and start another: such text is no contact.
        #expect(ContactTerms.contact("ops@example.org\r\nX-Injected: 1") == nil)
        #expect(ContactTerms.contact("ops@example.org\n") == nil)
        #expect(ContactTerms.contact("ops\u{0}@example.org") == nil)
    }

    @Test func theMissingContactSaysWhereToGiveOne() {
        let absent = ContactTerms.missing("MET Norway's terms ask", id: "met-norway", variable: "ISOBAR_CONTACT",
                                          file: (path: "/home/you/.config/isobar/config.json", exists: false))
        #expect(absent.code == .notConfigured)
        #expect(absent.setting == "ISOBAR_CONTACT")
        #expect(absent.message == "MET Norway's terms ask for a contact (an e-mail address or URL): set ISOBAR_CONTACT, or \"contact\" in "
            + "a \"met-norway\" entry of /home/you/.config/isobar/config.json (isobar setup writes that file)")
        let present = ContactTerms.missing("the NWS API asks", id: "nws-alerts", variable: "ISOBAR_CONTACT", file: (path: "/etc/isobar.json", exists: true))
        #expect(present.message.hasSuffix("or \"contact\" in the \"nws-alerts\" entry of /etc/isobar.json"))
        let unknown = ContactTerms.missing("the NWS API asks", id: "nws-alerts", variable: "ISOBAR_CONTACT", file: nil)
        #expect(unknown.message.hasSuffix("or \"contact\" in its entry of the configuration file"))
    }
}
