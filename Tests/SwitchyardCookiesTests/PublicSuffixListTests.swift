import SwitchyardCookies
import Testing

/// The Public Suffix List's rules: plain, wildcard and exception.
struct PublicSuffixListTests {
    private let list = PublicSuffixList(
        text: """
            // ===BEGIN ICANN DOMAINS===
            com
            uk
            co.uk
            *.ck
            !www.ck
            // ===BEGIN PRIVATE DOMAINS===
            github.io
            """)

    @Test func plainWildcardAndExceptionRules() {
        #expect(list.isPublicSuffix("com"))
        #expect(list.isPublicSuffix("co.uk"))
        #expect(!list.isPublicSuffix("example.co.uk"))
        #expect(list.publicSuffix(of: "a.b.example.co.uk") == "co.uk")
        #expect(list.isPublicSuffix("anything.ck"), "*.ck")
        #expect(!list.isPublicSuffix("www.ck"), "!www.ck")
        #expect(list.publicSuffix(of: "a.www.ck") == "ck")
        #expect(list.isPublicSuffix("github.io"))
        #expect(list.isPublicSuffix("unknowntld"), "no rule: the last label")
        #expect(list.count == 6)
    }

    @Test func theSystemListIsInstalledAndKnowsSuperCookieDomains() throws {
        let system = try #require(PublicSuffixList.system(), "make test installs Debian's publicsuffix package")
        #expect(system.count > 5_000)
        #expect(system.isPublicSuffix("co.uk"))
        #expect(system.isPublicSuffix("github.io"))
        #expect(!system.isPublicSuffix("example.com"))
    }
}
