import Foundation
import HTTPTypes
import SwitchyardCore

/// Freshness and age of a stored response (RFC 9111 §4.2), as a private cache computes them.
extension CachedResponse {
    /// Statuses that a cache may reuse with a heuristic freshness lifetime (RFC 9110 §15.1).
    static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The response's directives.
    var cacheControl: CacheControl { CacheControl(headerFields) }

    /// The `Date` field, if valid.
    var date: Double? { time(in: .date) }

    /// The HTTP-date in field `name` (any of the three forms a recipient must accept, RFC 9110
    /// §5.6.7, its names in any case as RFC 9111 §4.2 asks of a cache) as seconds since 1970, or
    /// `nil` when the field is absent or invalid. Of several fields of that name the first counts
    /// (§4.2: "the first occurrence should be used"), also when a transport joined them into one
    /// value with commas (URLSession does). An RFC 850 date's two-digit year is placed relative to
    /// when the response was received.
    /// - Parameter name: `Date`, `Expires` or `Last-Modified`.
    /// - Returns: Seconds since 1970.
    func time(in name: HTTPField.Name) -> Double? {
        guard let text = headerFields.first(where: { $0.name == name })?.value[...] else { return nil }
        let now = Date(timeIntervalSince1970: responseTime)
        if let date = HTTPDate(text, now: now, ignoringCaseOfNames: true) { return Double(date.secondsSince1970) }
        // Not one date: perhaps several joined by ", ". The first prefix that is one counts.
        var searchStart = text.startIndex
        while let comma = text[searchStart...].firstIndex(of: ",") {
            if let date = HTTPDate(text[..<comma], now: now, ignoringCaseOfNames: true) {
                return Double(date.secondsSince1970)
            }
            searchStart = text.index(after: comma)
        }
        return nil
    }

    /// The `Age` field's value in seconds (RFC 9111 §5.1): the first member of a list (`Age: 7200,
    /// 0` is 7200), `nil` when the field is absent or that member is not delta-seconds (digits only:
    /// a network "inf" or "nan" must not reach the arithmetic).
    var ageFieldValue: Double? {
        guard let value = headerFields.first(where: { $0.name == .age })?.value[...] else { return nil }
        let member = value[..<(value.firstIndex(of: ",") ?? value.endIndex)].trimmingOptionalWhitespace()
        let isDigits = member.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return !member.isEmpty && isDigits ? Double(member) : nil
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
        let ageValue = ageFieldValue ?? 0
        let apparentAge = max(0, responseTime - (date ?? responseTime))
        let responseDelay = max(0, responseTime - requestTime)
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now - responseTime)
    }

    /// How a stored response may answer a request without the network.
    enum Reuse: Sendable, Hashable {
        /// Fresh: served as it is.
        case fresh
        /// Stale, and the request accepts it (`max-stale`).
        case staleAccepted
        /// Stale within the response's `stale-while-revalidate` window: served, and revalidated in
        /// the background.
        case staleWhileRevalidate
        /// Must be validated with the origin before it is used.
        case validate
    }

    /// How the response may be used at `now` for a request with `request` directives (RFC 9111
    /// §4.2, §4.2.4, §5.2.1; RFC 5861 §3): either side's `no-cache`, the request's `max-age` and
    /// `min-fresh` ask for validation; a stale response is acceptable within the request's
    /// `max-stale` or the response's `stale-while-revalidate` (the latter only when the request
    /// sets no `max-age` or `min-fresh`), never with `must-revalidate`.
    /// - Parameters:
    ///   - now: The current time.
    ///   - ttl: The app's freshness lifetime for the endpoint, if any.
    ///   - request: The request's `Cache-Control` directives.
    /// - Returns: How it may be used.
    func reuse(now: Double, ttl: Duration?, request: CacheControl) -> Reuse {
        let directives = cacheControl
        if request.noCache || directives.noCache { return .validate }
        let age = currentAge(now: now)
        if let maxAge = request.maxAge, age > Double(maxAge) { return .validate }
        let lifetime = freshnessLifetime(ttl: ttl, directives: directives)
        if let minFresh = request.minFresh, lifetime - age < Double(minFresh) { return .validate }
        if lifetime > age { return .fresh }
        guard !directives.mustRevalidate else { return .validate }
        let staleness = age - lifetime
        if let maxStale = request.maxStale, staleness <= Double(maxStale) { return .staleAccepted }
        if let window = directives.staleWhileRevalidate, staleness <= Double(window), request.maxAge == nil,
            request.minFresh == nil
        {
            return .staleWhileRevalidate
        }
        return .validate
    }

    /// Whether the response may be used without validation at `now` for a request with `request` directives.
    /// - Parameters:
    ///   - now: The current time.
    ///   - ttl: The app's freshness lifetime for the endpoint, if any.
    ///   - request: The request's `Cache-Control` directives.
    /// - Returns: `true` when fresh (and fresh enough for the request) and neither side asks for validation.
    func isFresh(now: Double, ttl: Duration?, request: CacheControl) -> Bool {
        reuse(now: now, ttl: ttl, request: request) == .fresh
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
