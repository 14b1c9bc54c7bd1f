import Foundation
import HTTPTypes
import SwitchyardCookies
import Testing

/// The storage model (§5.7) and the `Cookie` field (§5.8.3), without a network.
struct CookieJarTests {
    private let suffixes = PublicSuffixList(text: "com\nuk\nco.uk\nio\ngithub.io")

    private func jar(limits: CookieJar.Limits = .init()) -> CookieJar {
        CookieJar(publicSuffixes: suffixes, limits: limits)
    }

    private func request(_ url: String) -> HTTPRequest {
        let components = URLComponents(string: url)!
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let authority = (components.percentEncodedHost ?? "") + (components.port.map { ":\($0)" } ?? "")
        return HTTPRequest(method: .get, scheme: components.scheme, authority: authority, path: path)
    }

    @discardableResult
    private func receive(_ jar: CookieJar, _ url: String, _ setCookies: String..., now: Date = Date()) throws -> [Cookie] {
        var fields = HTTPFields()
        for value in setCookies { fields.append(HTTPField(name: .setCookie, value: value)) }
        return try jar.store(fields, from: request(url), now: now)
    }

    private func sent(_ jar: CookieJar, _ url: String, now: Date = Date()) throws -> String? {
        try jar.cookieField(for: request(url), now: now)
    }

    @Test func aHostOnlyCookieGoesToItsHostAloneADomainCookieToSubdomainsToo() throws {
        let jar = jar()
        try receive(jar, "https://www.example.com/", "host=1", "dom=2; Domain=example.com")
        #expect(try sent(jar, "https://www.example.com/") == "host=1; dom=2")
        #expect(try sent(jar, "https://api.example.com/") == "dom=2")
        #expect(try sent(jar, "https://example.com/") == "dom=2")
        #expect(try sent(jar, "https://evilexample.com/") == nil)
    }

    /// RFC 6265bis §5.7: a non-empty Domain the host domain-matches makes a domain cookie, also when
    /// it is the host itself (with or without a leading dot, in any case).
    @Test(arguments: ["home.example.org", ".home.example.org", "HOME.Example.org"])
    func aDomainEqualToTheHostMakesADomainCookieThatSubdomainsReceive(_ domain: String) throws {
        let jar = jar()
        let stored = try receive(jar, "http://home.example.org/", "foo=bar; Domain=\(domain)")
        #expect(stored.map(\.isHostOnly) == [false])
        #expect(stored.map(\.domain) == ["home.example.org"])
        #expect(try sent(jar, "http://home.example.org/") == "foo=bar")
        #expect(try sent(jar, "http://sub.home.example.org/") == "foo=bar")
        #expect(try sent(jar, "http://a.b.home.example.org/") == "foo=bar")
        #expect(try sent(jar, "http://example.org/") == nil)
        #expect(try sent(jar, "http://otherhome.example.org/") == nil)
    }

    @Test func withoutADomainAttributeOrWithAnEmptyOneTheCookieIsHostOnly() throws {
        let jar = jar()
        let stored = try receive(jar, "http://home.example.org/", "a=1", "b=2; Domain=")
        #expect(stored.map(\.isHostOnly) == [true, true])
        #expect(try sent(jar, "http://sub.home.example.org/") == nil)
    }

    @Test func aDomainCookieForTheHostRoundTripsThroughANetscapeFileAsCurlWritesIt() throws {
        let jar = jar()
        try receive(jar, "http://home.example.org/", "foo=bar; Domain=home.example.org; Path=/", "host=1; Path=/")
        let text = NetscapeCookieFile.text(for: try jar.allCookies())
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.contains(".home.example.org\tTRUE\t/\tFALSE\t0\tfoo\tbar"), "\(text)")
        #expect(lines.contains("home.example.org\tFALSE\t/\tFALSE\t0\thost\t1"), "\(text)")
        let reread = self.jar()
        for cookie in NetscapeCookieFile.cookies(from: text) { try reread.insert(cookie) }
        let flags = try reread.allCookies().map { "\($0.name) \($0.domain) \($0.isHostOnly)" }
        #expect(flags.sorted() == ["foo home.example.org false", "host home.example.org true"])
        #expect(try sent(reread, "http://sub.home.example.org/") == "foo=bar")
        let rewritten = NetscapeCookieFile.text(for: try reread.allCookies())
        #expect(rewritten.split(separator: "\n").sorted() == text.split(separator: "\n").sorted())
    }

    @Test func aDomainTheHostIsNotWithinIsRefused() throws {
        let jar = jar()
        #expect(try receive(jar, "https://www.example.com/", "a=1; Domain=other.com").isEmpty)
        #expect(try receive(jar, "https://www.example.com/", "a=1; Domain=ww.example.com").isEmpty)
        #expect(try jar.allCookies().isEmpty)
    }

    @Test func superCookiesForAPublicSuffixAreRefusedUnlessTheHostIsTheSuffixItself() throws {
        let jar = jar()
        #expect(try receive(jar, "https://shop.example.co.uk/", "a=1; Domain=co.uk").isEmpty)
        #expect(try receive(jar, "https://me.github.io/", "b=1; Domain=github.io").isEmpty)
        let own = try receive(jar, "https://github.io/", "c=1; Domain=github.io", "d=1; Domain=.GitHub.io")
        #expect(own.map(\.isHostOnly) == [true, true], "a public suffix may set a host-only cookie for itself")
        #expect(try sent(jar, "https://me.github.io/") == nil)
        let ownField = try sent(jar, "https://github.io/") ?? ""
        #expect(Set(ownField.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }) == ["c=1", "d=1"])
    }

    @Test func pathsMatchByPrefixAtSlashesAndLongerPathsComeFirstThenOlderCookies() throws {
        let jar = jar()
        let start = Date()
        try receive(jar, "https://example.com/", "root=1; Path=/", now: start)
        try receive(jar, "https://example.com/", "deep=2; Path=/app/v1", now: start.addingTimeInterval(1))
        try receive(jar, "https://example.com/", "app=3; Path=/app", now: start.addingTimeInterval(2))
        try receive(jar, "https://example.com/", "later=4; Path=/", now: start.addingTimeInterval(3))
        #expect(try sent(jar, "https://example.com/app/v1/items?x=1", now: start.addingTimeInterval(4)) == "deep=2; app=3; root=1; later=4")
        #expect(try sent(jar, "https://example.com/application", now: start.addingTimeInterval(4)) == "root=1; later=4")
        #expect(try sent(jar, "https://example.com/app", now: start.addingTimeInterval(4)) == "app=3; root=1; later=4")
    }

    @Test func theDefaultPathIsTheRequestPathUpToItsLastSlash() throws {
        let jar = jar()
        let stored = try receive(jar, "https://example.com/account/login?next=/", "a=1", "b=2; Path=relative")
        #expect(stored.map(\.path) == ["/account", "/account"])
        let top = try receive(jar, "https://example.com/login", "c=1")
        #expect(top.map(\.path) == ["/"])
    }

    @Test func secureCookiesNeedASecureOriginAndAreSentOnlyOverOne() throws {
        let jar = jar()
        #expect(try receive(jar, "http://example.com/", "s=1; Secure").isEmpty, "Secure from http is refused")
        try receive(jar, "https://example.com/", "s=1; Secure")
        #expect(try sent(jar, "https://example.com/") == "s=1")
        #expect(try sent(jar, "http://example.com/") == nil)
        #expect(try receive(jar, "http://example.com/", "s=evil").isEmpty, "http may not shadow a secure cookie")
        #expect(try sent(jar, "https://example.com/") == "s=1")
    }

    @Test func loopbackCountsAsASecureOrigin() throws {
        let jar = jar()
        try receive(jar, "http://127.0.0.1:8080/", "s=1; Secure")
        try receive(jar, "http://localhost:8080/", "t=1; Secure")
        #expect(try sent(jar, "http://127.0.0.1:8080/") == "s=1")
        #expect(try sent(jar, "http://localhost/") == "t=1", "cookies do not depend on the port")
    }

    @Test func maxAgeWinsOverExpiresAndAPastExpiryDeletes() throws {
        let jar = jar()
        let now = Date()
        let stored = try receive(jar, "https://example.com/", "a=1; Expires=Thu, 01 Jan 2037 00:00:00 GMT; Max-Age=60", now: now)
        #expect(stored.first?.expires == now.addingTimeInterval(60))
        try receive(jar, "https://example.com/", "a=1; Max-Age=0", now: now)
        #expect(try sent(jar, "https://example.com/", now: now) == nil)
        try receive(jar, "https://example.com/", "b=1; Expires=Thu, 01 Jan 1970 00:00:01 GMT", now: now)
        #expect(try jar.allCookies().isEmpty)
        #expect(try sent(jar, "https://example.com/", now: now.addingTimeInterval(61)) == nil)
    }

    @Test func lifetimesAreCappedAtFourHundredDays() throws {
        let now = Date()
        let stored = try receive(jar(), "https://example.com/", "a=1; Max-Age=999999999", now: now)
        #expect(stored.first?.expires == now.addingTimeInterval(400 * 86_400))
    }

    @Test func aReplacedCookieKeepsItsCreationTimeAndItsPlace() throws {
        let jar = jar()
        let start = Date()
        try receive(jar, "https://example.com/", "a=1", now: start)
        try receive(jar, "https://example.com/", "b=2", now: start.addingTimeInterval(1))
        try receive(jar, "https://example.com/", "a=3", now: start.addingTimeInterval(2))
        #expect(try sent(jar, "https://example.com/", now: start.addingTimeInterval(3)) == "a=3; b=2")
    }

    @Test func prefixedNamesMustKeepTheirPromises() throws {
        let jar = jar()
        #expect(try receive(jar, "https://example.com/", "__Secure-a=1").isEmpty)
        #expect(try receive(jar, "https://example.com/", "__Secure-a=1; Secure").count == 1)
        #expect(try receive(jar, "https://www.example.com/", "__Host-b=1; Secure; Path=/; Domain=example.com").isEmpty)
        #expect(try receive(jar, "https://example.com/", "__Host-b=1; Secure; Path=/app").isEmpty)
        #expect(try receive(jar, "https://example.com/", "__host-b=1; Secure; Path=/").count == 1)
        #expect(try receive(jar, "https://example.com/", "__Host-c").isEmpty, "a nameless cookie may not look prefixed")
    }

    @Test func cookiesAreSentToIPAddressesOnlyAsHostOnly() throws {
        let jar = jar()
        try receive(jar, "http://10.0.0.1/", "a=1")
        #expect(try sent(jar, "http://10.0.0.1/") == "a=1")
        #expect(try receive(jar, "http://10.0.0.1/", "b=1; Domain=0.0.1").isEmpty)
    }

    @Test func limitsEvictTheOldestOfADomainThenTheOldestOverall() throws {
        let jar = jar(limits: .init(perDomain: 3, total: 5))
        let start = Date()
        for index in 0..<5 {
            try receive(jar, "https://a.com/", "a\(index)=1", now: start.addingTimeInterval(Double(index)))
        }
        #expect(try jar.allCookies().map(\.name) == ["a2", "a3", "a4"])
        for index in 0..<3 {
            try receive(jar, "https://b.com/", "b\(index)=1", now: start.addingTimeInterval(Double(10 + index)))
        }
        #expect(try jar.allCookies().map(\.name) == ["a3", "a4", "b0", "b1", "b2"])
    }

    @Test func partitionsAreSeparateAndSignOutClearsOneOnly() throws {
        let jar = jar()
        jar.partition = "alice"
        try receive(jar, "https://example.com/", "session=alice")
        jar.partition = "bob"
        try receive(jar, "https://example.com/", "session=bob")
        #expect(try sent(jar, "https://example.com/") == "session=bob")
        try jar.removeAll(partition: "alice")
        jar.partition = "alice"
        #expect(try sent(jar, "https://example.com/") == nil)
        #expect(try jar.allCookies(in: "bob").map(\.value) == ["bob"])
    }

    @Test func descriptionsDoNotShowWholeValues() {
        let cookie = Cookie(name: "sid", value: "secret-session-token", domain: ".Example.com", isHostOnly: false)
        #expect(cookie.domain == "example.com")
        #expect(!cookie.description.contains("secret-session-token"))
        #expect(cookie.description.hasPrefix("sid=secr…"))
    }
}
