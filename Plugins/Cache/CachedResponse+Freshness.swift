import Foundation
import HTTPTypes
import Switchyard

/// Freshness and age of a stored response (RFC 9111 §4.2), as a private cache computes them.
extension CachedResponse {
    /// Statuses that a cache may reuse with a heuristic freshness lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The response's directives.
    var cacheControl: CacheControl { CacheControl(headerFields) }

    /// The `Date` field, if valid.
    var date: Double? { time(in: .date) }

    /// The HTTP-date in field `name` (any of the three forms a recipient must accept, RFC 9110
    /// §5.6.7) as seconds since 1970, or `nil` when the field is absent or invalid. An RFC 850
    /// date's two-digit year is placed relative to when the response was received.
    /// - Parameter name: `Date`, `Expires` or `Last-Modified`.
    /// - Returns: Seconds since 1970.
    func time(in name: HTTPField.Name) -> Double? {
        guard let text = headerFields[name] else { return nil }
        let date = HTTPDate(text, now: Date(timeIntervalSince1970: responseTime))
        return date.map { Double($0.secondsSince1970) }
    }

    /// How long the response stays fresh after it was generated (§4.2.1): `ttl` when the app set one
    /// for its endpoint, else `max-age` (`s-maxage` is for shared caches), else `Expires` minus `Date`,
    /// else 10 % of the time since `Last-Modified` for a heuristically cacheable status (§4.2.2), else 0.
    /// - Parameter ttl: The app's freshness lifetime for this endpoint, overriding the headers.
    /// - Returns: Seconds.
    func freshnessLifetime(ttl: Duration?) -> Double {
        freshnessLifetime(ttl: ttl, directives: cacheControl)
    }

    private func freshnessLifetime(ttl: Duration?, directives: CacheControl) -> Double {
        if let ttl { return Double(ttl.components.seconds) + Double(ttl.components.attoseconds) * 1e-18 }
        if let maxAge = directives.maxAge { return Double(maxAge) }
        if headerFields[.expires] != nil {
            // An invalid Expires (e.g. "0") means already expired.
            guard let expires = time(in: .expires) else { return 0 }
            return max(0, expires - (date ?? responseTime))
        }
        if Self.heuristicallyCacheableStatuses.contains(status),
            let lastModified = time(in: .lastModified)
        {
            return max(0, ((date ?? responseTime) - lastModified) / 10)
        }
        return 0
    }

    /// The response's current age at `now` (§4.2.3), in seconds.
    /// - Parameter now: The current time, seconds since 1970.
    /// - Returns: Seconds, never negative.
    func currentAge(now: Double) -> Double {
        // `Age` is delta-seconds: digits only (a network "inf" or "nan" must not reach the arithmetic).
        let ageValue =
            headerFields[.age].flatMap { text in
                text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ? Double(text) : nil
            } ?? 0
        let apparentAge = max(0, responseTime - (date ?? responseTime))
        let responseDelay = max(0, responseTime - requestTime)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now - responseTime)
    }

    /// Whether the response may be used without validation at `now` for a request with `request` directives.
    /// - Parameters:
    ///   - now: The current time.
    ///   - ttl: The app's freshness lifetime for the endpoint, if any.
    ///   - request: The request's `Cache-Control` directives.
    /// - Returns: `true` when fresh and neither side asks for validation.
    func isFresh(now: Double, ttl: Duration?, request: CacheControl) -> Bool {
        let age = currentAge(now: now)
        let directives = cacheControl
        if request.noCache || directives.noCache { return false }
        if let maxAge = request.maxAge, age > Double(maxAge) { return false }
        return freshnessLifetime(ttl: ttl, directives: directives) > age
    }

    /// Whether the origin forbids serving this response once stale, even when the network fails
    /// (`must-revalidate`, `no-cache`: RFC 9111 §4.2.4).
    var forbidsStaleUse: Bool {
        let directives = cacheControl
        return directives.mustRevalidate || directives.noCache
    }

    /// Whether the response has a validator for a conditional request (`ETag` or `Last-Modified`).
    var hasValidator: Bool { headerFields[.eTag] != nil || headerFields[.lastModified] != nil }

    /// The stored headers updated with those of a `304 Not Modified` (§3.2, §4.3.4): every field
    /// the 304 carries replaces the stored fields of that name, except the body's framing.
    /// - Parameter fields: The 304's header fields.
    mutating func refresh(with fields: HTTPFields) {
        let kept: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .transferEncoding, .contentRange]
        var names: [HTTPField.Name] = []
        for field in fields where !kept.contains(field.name) && !names.contains(field.name) { names.append(field.name) }
        for name in names { headerFields[values: name] = fields[values: name] }
        // The stored `Age` described the first response; the new request and response times now count.
        if fields[.age] == nil { headerFields[.age] = nil }
    }
}
