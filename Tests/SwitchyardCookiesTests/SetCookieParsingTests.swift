import Foundation
import SwitchyardCookies
import Testing

/// `Set-Cookie` read as RFC 6265bis §5.6 says: leniently, attribute by attribute.
struct SetCookieParsingTests {
    @Test func nameAndValueAreTrimmedAndAttributesAreCaseInsensitive() throws {
        let field = try #require(SetCookie(" sid = abc 123 ; pAtH=/app ; SECURE; httponly; SameSite=lax; Domain=.Example.COM"))
        #expect(field.name == "sid")
        #expect(field.value == "abc 123")
        #expect(field.path == "/app")
        #expect(field.isSecure && field.isHTTPOnly)
        #expect(field.sameSite == .lax)
        #expect(field.domain == "example.com", "lower-cased, leading dot removed")
    }

    @Test func aFieldWithoutEqualsIsANamelessCookie() throws {
        let field = try #require(SetCookie("justavalue; Path=/"))
        #expect(field.name == "")
        #expect(field.value == "justavalue")
    }

    @Test func controlCharactersOrNothingAtAllRefuseTheField() {
        #expect(SetCookie("a=b\u{0}c") == nil)
        #expect(SetCookie("a=b\u{7F}") == nil)
        #expect(SetCookie("=; Path=/") == nil)
        #expect(SetCookie(String(repeating: "x", count: 4_000) + "=" + String(repeating: "y", count: 200)) == nil)
        #expect(SetCookie("a=b\tc") != nil, "horizontal tab is allowed")
    }

    @Test func theLastValidAttributeWinsAndBrokenOnesAreDroppedAlone() throws {
        let field = try #require(SetCookie("a=1; Max-Age=10; Max-Age=abc; Path=/x; Path=relative; Domain=; SameSite=whatever"))
        #expect(field.maxAge == 10, "an invalid Max-Age is ignored, the earlier one stays")
        #expect(field.path == nil, "the last Path does not start with / so the default path applies")
        #expect(field.domain == nil, "an empty Domain is ignored")
        #expect(field.sameSite == .default)
    }

    @Test func maxAgeReadsNegativeAndHugeNumbers() throws {
        #expect(try #require(SetCookie("a=1; Max-Age=-5")).maxAge == -5)
        #expect(try #require(SetCookie("a=1; Max-Age=99999999999999999999999")).maxAge == Int64.max)
        #expect(try #require(SetCookie("a=1; Max-Age=-")).maxAge == nil)
        #expect(try #require(SetCookie("a=1; Max-Age=1e3")).maxAge == nil)
    }

    @Test func anOversizedAttributeValueIsIgnored() throws {
        let field = try #require(SetCookie("a=1; Path=/" + String(repeating: "p", count: 2_000)))
        #expect(field.path == nil)
    }
}

/// The cookie-date algorithm (§5.1.1) on the forms servers send.
struct CookieDateTests {
    private func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Date {
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)!
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",  // IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850, two-digit year
        "Sun Nov  6 08:49:37 1994",  // asctime
        "Sun, 06-Nov-1994 08:49:37 GMT",  // the Netscape form
        "06 Nov 1994 08:49:37",  // no weekday, no zone
        "Sun, 6 NOVEMBER 1994 8:49:37 GMT+0000",  // full month name, one-digit hour
        "1994 Nov 6 08:49:37"  // year first: four digits cannot be a day of the month
    ])
    func everyFormServersUseReadsTheSameInstant(_ text: String) {
        #expect(CookieDate.parse(text) == date(1994, 11, 6, 8, 49, 37), "\(text)")
    }

    @Test func twoDigitYearsFollowTheRule() {
        #expect(CookieDate.parse("01 Jan 70 00:00:00") == date(1970, 1, 1, 0, 0, 0))
        #expect(CookieDate.parse("01 Jan 69 00:00:00") == date(2069, 1, 1, 0, 0, 0))
    }

    @Test(arguments: [
        "30 Feb 2024 00:00:00", "01 Jan 2024 24:00:00", "01 Jan 1600 00:00:00", "01 Jan 2024", "Jan 2024 10:00:00",
        "32 Jan 2024 10:00:00", "", "garbage"
    ])
    func impossibleOrIncompleteDatesAreNotDates(_ text: String) {
        #expect(CookieDate.parse(text) == nil, "\(text)")
    }
}
