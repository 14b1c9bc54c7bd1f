import Foundation
import HTTPTypes
import Switchyard

/// Entry points for the fuzzers in `Fuzz/`: the cache's header parsing, with arbitrary input. Not
/// API: `@_spi(Fuzzing)` only.
@_spi(Fuzzing)
public enum CacheFuzzEntryPoints {
    /// Parses `Cache-Control` (and the dates the cache reads) from a field value.
    public static func cacheControl(_ value: String) {
        let fields: HTTPFields = [.cacheControl: value, .expires: value, .date: value, .age: value, .lastModified: value]
        _ = CacheControl(fields)
        // Any date read writes back as an IMF-fixdate that reads as the same instant.
        if let date = HTTPDate(value, now: Date(timeIntervalSince1970: 1_800_000_000)) {
            precondition(HTTPDate(date.imfFixdate) == date, "HTTPDate round trip")
        }
    }
}
