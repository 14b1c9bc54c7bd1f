import Foundation
import HTTPTypes
import SwitchyardCore
import Testing

@testable import SwitchyardCache

/// The new directives, `Age` lists, case-insensitive dates, ranges and the combining of parts,
/// without the network.
@Suite struct CacheDirectiveUnitTests {
    /// 2022-11-06 08:49:37 UTC.
    static let date = 1_667_724_577.0

    static func stored(_ fields: HTTPFields, status: Int = 200, body: [UInt8] = []) -> CachedResponse {
        CachedResponse(status: status, headerFields: fields, body: body, requestTime: date, responseTime: date)
    }

    @Test func requestDirectivesAndStaleWhileRevalidateAreParsed() {
        let request = CacheControl([.cacheControl: "max-stale=30, MIN-FRESH=\"20\", only-if-cached"])
        #expect(request.maxStale == 30)
        #expect(request.minFresh == 20)
        #expect(request.onlyIfCached)
        #expect(CacheControl([.cacheControl: "max-stale"]).maxStale == .max)
        #expect(CacheControl([.cacheControl: "max-stale=soon"]).maxStale == nil)
        #expect(CacheControl([.cacheControl: "max-age=0, stale-while-revalidate=600"]).staleWhileRevalidate == 600)
        // The first occurrence counts (RFC 9111 §4.2.1).
        #expect(CacheControl([.cacheControl: "max-age=60", .cacheControl: "max-age=10"]).maxAge == 60)
    }

    @Test func noCacheWithFieldNamesIsQualifiedAndQuotedCommasDoNotSplit() {
        let qualified = CacheControl([.cacheControl: "no-cache=\"Set-Cookie, X-Token\", max-age=5"])
        #expect(!qualified.noCache)
        #expect(qualified.noCacheFields == ["set-cookie", "x-token"])
        #expect(qualified.maxAge == 5)
        #expect(CacheControl([.cacheControl: "no-cache=Set-Cookie"]).noCacheFields == ["set-cookie"])
        // An empty argument names nothing: the unqualified meaning, the safe one.
        #expect(CacheControl([.cacheControl: "no-cache=\"\""]).noCache)
        let both = CacheControl([.cacheControl: "no-cache=\"Set-Cookie\", no-cache"])
        #expect(both.noCache)
        // A comma inside another directive's quotes, an escaped quote, an unterminated quote.
        #expect(CacheControl([.cacheControl: "private=\"a, b\", max-age=7"]).maxAge == 7)
        #expect(CacheControl([.cacheControl: "ext=\"a\\\", max-age=1\", max-age=9"]).maxAge == 9)
        #expect(CacheControl([.cacheControl: "ext=\"open, max-age=3"]).maxAge == nil)
    }

    @Test func anAgeListUsesItsFirstMemberAndAnInvalidOneIsIgnored() {
        #expect(Self.stored([.age: "7200, 0"]).currentAge(now: Self.date) == 7_200)
        #expect(Self.stored([.age: " 30 ,5"]).currentAge(now: Self.date) == 30)
        #expect(Self.stored([.age: "15", .age: "7200"]).currentAge(now: Self.date) == 15)
        #expect(Self.stored([.age: "x, 7200"]).currentAge(now: Self.date) == 0)
        #expect(Self.stored([.age: ", 7200"]).currentAge(now: Self.date) == 0)
    }

    @Test func datesAreReadWhateverTheCaseOfTheirNames() {
        let fixdate = "Sun, 06 Nov 2022 08:49:37 GMT"
        for expires in [
            "Sun, 06 NOV 2022 09:49:37 GMT", "sun, 06 nov 2022 09:49:37 gmt", "SUNDAY, 06-NOV-22 09:49:37 GMT",
            "Sunday, 06-Nov-22 09:49:37 Gmt", "SUN NOV  6 09:49:37 2022", "Sun Nov  6 09:49:37 2022"
        ] {
            #expect(Self.stored([.date: fixdate, .expires: expires]).freshnessLifetime(ttl: nil) == 3_600, "\(expires)")
        }
        #expect(Self.stored([.date: "SUN, 06 NOV 2022 08:49:37 GMT", .expires: "Sun, 06 Nov 2022 09:49:37 GMT"]).date == Self.date)
        // Two Expires fields, or the one value a transport joined them into: the first counts.
        let first = "Sun, 06 Nov 2022 09:49:37 GMT"
        let second = "Sun, 06 Nov 2022 08:49:37 GMT"
        #expect(Self.stored([.date: fixdate, .expires: first, .expires: second]).freshnessLifetime(ttl: nil) == 3_600)
        #expect(Self.stored([.date: fixdate, .expires: first + ", " + second]).freshnessLifetime(ttl: nil) == 3_600)
        #expect(Self.stored([.date: fixdate, .expires: "soon, " + first]).freshnessLifetime(ttl: nil) == 0)
        // The kernel's strict reading is unchanged; the case-insensitive one reads only letters differently.
        #expect(HTTPDate("Sun, 06 NOV 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate("Sun, 06 NOV 1994 08:49:37 GMT", ignoringCaseOfNames: true)?.secondsSince1970 == 784_111_777)
        #expect(HTTPDate("Sun, 06 NOV 1994 08:49:37 UTC", ignoringCaseOfNames: true) == nil)
        #expect(HTTPDate("Sun,  06 Nov 1994 08:49:37 GMT", ignoringCaseOfNames: true) == nil)
    }

    @Test func reuseFollowsTheRequestAndResponseDirectives() {
        let fresh = Self.stored([.cacheControl: "max-age=100"])
        #expect(fresh.reuse(now: Self.date + 50, ttl: nil, request: CacheControl([:])) == .fresh)
        #expect(fresh.reuse(now: Self.date + 50, ttl: nil, request: CacheControl([.cacheControl: "min-fresh=60"])) == .validate)
        #expect(fresh.reuse(now: Self.date + 150, ttl: nil, request: CacheControl([.cacheControl: "max-stale=50"])) == .staleAccepted)
        #expect(fresh.reuse(now: Self.date + 151, ttl: nil, request: CacheControl([.cacheControl: "max-stale=50"])) == .validate)
        let window = Self.stored([.cacheControl: "max-age=100, stale-while-revalidate=60"])
        #expect(window.reuse(now: Self.date + 150, ttl: nil, request: CacheControl([:])) == .staleWhileRevalidate)
        #expect(window.reuse(now: Self.date + 161, ttl: nil, request: CacheControl([:])) == .validate)
        #expect(window.reuse(now: Self.date + 150, ttl: nil, request: CacheControl([.cacheControl: "max-age=200"])) == .validate)
        let strict = Self.stored([.cacheControl: "max-age=100, stale-while-revalidate=60, must-revalidate"])
        #expect(strict.reuse(now: Self.date + 150, ttl: nil, request: CacheControl([.cacheControl: "max-stale"])) == .validate)
    }

    @Test func byteRangesAreParsedStrictly() {
        #expect(ByteRangeRequest("bytes=0-499")?.resolved(length: 1_000) == 0...499)
        #expect(ByteRangeRequest(" BYTES = 500- ")?.resolved(length: 1_000) == 500...999)
        #expect(ByteRangeRequest("bytes=-10")?.resolved(length: 1_000) == 990...999)
        #expect(ByteRangeRequest("bytes=-5000")?.resolved(length: 1_000) == 0...999)
        #expect(ByteRangeRequest("bytes=900-5000")?.resolved(length: 1_000) == 900...999)
        #expect(ByteRangeRequest("bytes=1000-")?.resolved(length: 1_000) == nil)
        for invalid in [
            "bytes=5-1", "bytes=0-1,5-6", "items=0-1", "bytes=-0", "bytes=-", "bytes=a-1", "bytes=+1-2", "bytes 0-1",
            "bytes=9999999999999999999-", "bytes=0-99999999999999999999", ""
        ] {
            #expect(ByteRangeRequest(invalid) == nil, "\(invalid)")
        }
        #expect(ContentRange("bytes 0-499/1234")?.range == 0...499)
        for invalid in ["bytes 0-499/*", "bytes 5-1/10", "bytes 0-10/10", "bytes */10", "items 0-1/2", "bytes 0-1"] {
            #expect(ContentRange(invalid) == nil, "\(invalid)")
        }
    }

    static func part(_ range: ClosedRange<Int>, of length: Int, eTag: String = "\"v1\"") -> CachedResponse {
        stored(
            [.eTag: eTag, .contentRange: "bytes \(range.lowerBound)-\(range.upperBound)/\(length)"],
            status: 206, body: range.map { UInt8($0 % 251) })
    }

    @Test func partsOfOneRepresentationCombineAndBecomeWhole() throws {
        let combined = try #require(CachedResponse.combining(Self.part(10...19, of: 30), with: Self.part(0...9, of: 30), limit: 1_000))
        #expect(combined.status == 206)
        #expect(combined.headerFields[.contentRange] == "bytes 0-19/30")
        #expect(combined.body == (0..<20).map { UInt8($0) })
        let whole = try #require(CachedResponse.combining(Self.part(15...29, of: 30), with: combined, limit: 1_000))
        #expect(whole.status == 200)
        #expect(whole.headerFields[.contentRange] == nil)
        #expect(whole.headerFields[.contentLength] == "30")
        #expect(whole.body == (0..<30).map { UInt8($0) })
        // A slice of it, and of a part.
        #expect(whole.slice(for: try #require(ByteRangeRequest("bytes=5-9")))?.range == 5...9)
        #expect(combined.slice(for: try #require(ByteRangeRequest("bytes=15-25"))) == nil)
    }

    @Test func partsThatDoNotBelongTogetherAreNotCombined() throws {
        let first = Self.part(0...9, of: 30)
        // A gap, another validator, a weak validator, another length: the new part alone.
        for (part, stored) in [
            (Self.part(11...19, of: 30), first),
            (Self.part(10...19, of: 30, eTag: "\"v2\""), first),
            (Self.part(10...19, of: 30, eTag: "W/\"v1\""), Self.part(0...9, of: 30, eTag: "W/\"v1\"")),
            (Self.part(10...19, of: 40), first)
        ] {
            let result = try #require(CachedResponse.combining(part, with: stored, limit: 1_000))
            #expect(result.headerFields[.contentRange] == part.headerFields[.contentRange])
            #expect(result.body == part.body)
        }
        // Over the limit: the new part alone.
        let alone = try #require(CachedResponse.combining(Self.part(10...19, of: 30), with: first, limit: 15))
        #expect(alone.body.count == 10)
        // A complete 200 with the same validator stays; a part whose body disagrees with its range is not stored.
        let complete = Self.stored([.eTag: "\"v1\""], body: (0..<30).map { UInt8($0) })
        #expect(CachedResponse.combining(Self.part(0...9, of: 30), with: complete, limit: 1_000) == nil)
        var short = Self.part(0...9, of: 30)
        short.body.removeLast()
        #expect(CachedResponse.combining(short, with: nil, limit: 1_000) == nil)
    }

    @Test func aStoredResponseThatCannotAnswerRangesSaysSo() throws {
        let range = try #require(ByteRangeRequest("bytes=0-1"))
        let body: [UInt8] = [1, 2, 3]
        #expect(Self.stored([.contentEncoding: "gzip"], body: body).slice(for: range) == nil)
        #expect(Self.stored([.contentLength: "5"], body: body).slice(for: range) == nil)
        #expect(Self.stored([:], status: 203, body: body).slice(for: range) == nil)
        #expect(Self.stored([:]).slice(for: range) == nil)
        #expect(Self.stored([.contentLength: "3"], body: body).slice(for: range)?.range == 0...1)
    }
}
