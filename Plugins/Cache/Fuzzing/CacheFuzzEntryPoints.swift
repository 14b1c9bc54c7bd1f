import Foundation
import HTTPTypes
import SwitchyardCore

/// Entry points for the fuzzers in `Fuzz/`: the cache's header parsing, with arbitrary input. Not
/// API: `@_spi(Fuzzing)` only.
@_spi(Fuzzing)
public enum CacheFuzzEntryPoints {
    /// Parses `Cache-Control` (and the dates, `Age` and ranges the cache reads) from a field value.
    public static func cacheControl(_ value: String) {
        let fields: HTTPFields = [.cacheControl: value, .expires: value, .date: value, .age: value, .lastModified: value]
        _ = CacheControl(fields)
        let stored = CachedResponse(
            status: 206, headerFields: fields + [HTTPField(name: .contentRange, value: value)], body: Array(value.utf8),
            requestTime: 1_800_000_000, responseTime: 1_800_000_000)
        _ = stored.currentAge(now: 1_800_000_100)
        _ = stored.reuse(now: 1_800_000_100, ttl: nil, request: CacheControl(fields))
        if let range = ByteRangeRequest(value) {
            // A range resolves inside the representation, or not at all.
            for length in [1, 10, 1_000] {
                if let bytes = range.resolved(length: length) { precondition(bytes.upperBound < length, "range inside") }
            }
            _ = stored.slice(for: range)
        }
        _ = CachedResponse.combining(stored, with: stored, limit: 1 << 20)
        // Any date read writes back as an IMF-fixdate that reads as the same instant.
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if let date = HTTPDate(value, now: now) {
            precondition(HTTPDate(date.imfFixdate) == date, "HTTPDate round trip")
            precondition(HTTPDate(value, now: now, ignoringCaseOfNames: true) == date, "case-insensitive reads more")
        }
    }
}
