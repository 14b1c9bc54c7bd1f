import HTTPTypes
import Testing

@testable import SwitchyardCache

/// Freshness lifetimes and ages (RFC 9111 §4.2), without the network.
@Suite struct FreshnessTests {
    /// 2022-11-06 08:49:37 UTC.
    static let date = 1_667_724_577.0
    static let dateText = "Sun, 06 Nov 2022 08:49:37 GMT"

    static func stored(_ fields: HTTPFields, status: Int = 200, at time: Double = date) -> CachedResponse {
        CachedResponse(status: status, headerFields: fields, requestTime: time, responseTime: time)
    }

    @Test func maxAgeWinsOverExpires() {
        let response = Self.stored([.cacheControl: "max-age=60", .expires: "Sun, 06 Nov 2022 09:49:37 GMT", .date: Self.dateText])
        #expect(response.freshnessLifetime(ttl: nil) == 60)
    }

    @Test func expiresCountsFromDate() {
        let response = Self.stored([.expires: "Sun, 06 Nov 2022 09:49:37 GMT", .date: Self.dateText])
        #expect(response.freshnessLifetime(ttl: nil) == 3_600)
        #expect(Self.stored([.expires: "0"]).freshnessLifetime(ttl: nil) == 0)
    }

    @Test func expiresAndDateInTheObsoleteFormsCount() {
        // RFC 9110 §5.6.7: a recipient must accept the RFC 850 and asctime forms too.
        let rfc850 = Self.stored([.expires: "Sunday, 06-Nov-22 09:49:37 GMT", .date: Self.dateText])
        #expect(rfc850.freshnessLifetime(ttl: nil) == 3_600)
        let asctime = Self.stored([.expires: "Sun Nov  6 09:49:37 2022", .date: "Sunday, 06-Nov-22 08:49:37 GMT"])
        #expect(asctime.date == Self.date)
        #expect(asctime.freshnessLifetime(ttl: nil) == 3_600)
        #expect(asctime.isFresh(now: Self.date + 3_599, ttl: nil, request: CacheControl([:])))
        #expect(!asctime.isFresh(now: Self.date + 3_601, ttl: nil, request: CacheControl([:])))
        let modified: HTTPFields = [.date: Self.dateText, .lastModified: "Sun Nov 6 07:49:37 2022"]
        #expect(Self.stored(modified).freshnessLifetime(ttl: nil) == 360)
    }

    @Test func anRFC850YearIsPlacedRelativeToWhenTheResponseArrived() {
        // Received in 2022, "94" is 1994 (2094 would be more than 50 years ahead): long expired.
        #expect(Self.stored([.expires: "Sunday, 06-Nov-94 08:49:37 GMT"]).freshnessLifetime(ttl: nil) == 0)
        // "72" is 2072, 50 years ahead at most: fresh until then.
        let expires = Self.stored([.expires: "Sunday, 06-Nov-72 08:49:37 GMT", .date: Self.dateText])
        #expect(expires.freshnessLifetime(ttl: nil) == 1_577_923_200)
    }

    @Test func sharedMaxAgeIsIgnoredByAPrivateCache() {
        #expect(Self.stored([.cacheControl: "s-maxage=600"]).freshnessLifetime(ttl: nil) == 0)
    }

    @Test func heuristicFreshnessIsATenthOfTheTimeSinceLastModifiedForCacheableStatusesOnly() {
        let fields: HTTPFields = [.date: Self.dateText, .lastModified: "Sun, 06 Nov 2022 07:49:37 GMT"]
        #expect(Self.stored(fields).freshnessLifetime(ttl: nil) == 360)
        #expect(Self.stored(fields, status: 500).freshnessLifetime(ttl: nil) == 0)
    }

    @Test func anAgeThatIsNotDeltaSecondsIsIgnored() {
        #expect(Self.stored([.age: "inf"]).currentAge(now: Self.date + 5) == 5)
        #expect(Self.stored([.age: "nan"]).currentAge(now: Self.date + 5) == 5)
        #expect(Self.stored([.age: "-3"]).currentAge(now: Self.date + 5) == 5)
    }

    @Test func ageAddsTheAgeFieldTheDelayAndTheResidentTime() {
        var response = Self.stored([.age: "30", .date: Self.dateText])
        response.requestTime = Self.date - 2
        #expect(response.currentAge(now: Self.date + 100) == 132)
    }
}

/// `Cache-Control` parsing.
@Suite struct CacheControlTests {
    @Test func parsesDirectivesAcrossFieldsCaseInsensitivelyWithQuotedArguments() {
        let directives = CacheControl([.cacheControl: "Max-Age=\"60\", private", .cacheControl: " no-cache ,MUST-REVALIDATE"])
        #expect(directives.maxAge == 60)
        #expect(directives.isPrivate)
        #expect(directives.noCache)
        #expect(directives.mustRevalidate)
        #expect(!directives.noStore)
        #expect(CacheControl([.cacheControl: "max-age=abc"]).maxAge == nil)
        #expect(CacheControl([.cacheControl: "max-age=99999999999999999999"]).maxAge == 1 << 31)
    }
}
