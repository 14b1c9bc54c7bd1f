import SwitchyardCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Reads a `Retry-After` header value (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
///
/// ```swift
/// RetryAfter.delay(from: "120")                                  // 120 s
/// RetryAfter.delay(from: "Wed, 21 Oct 2015 07:28:00 GMT", now: d) // the time from `d` until then
/// RetryAfter.delay(from: "soon")                                 // nil: not a valid value
/// ```
///
/// HTTP-dates are read by `HTTPDate`, in any of the three forms RFC 9110 requires a recipient to
/// accept (IMF-fixdate, and the obsolete RFC 850 and asctime forms). An invalid value is ignored (the
/// normal back-off applies). A date in the past means "retry now" (zero).
public enum RetryAfter {
    /// The wait a `Retry-After` value asks for.
    /// - Parameters:
    ///   - value: The header value, e.g. `"3"` or `"Sun, 06 Nov 1994 08:49:37 GMT"`.
    ///   - now: The current wall-clock time, used to turn an HTTP-date into a wait (and to place the
    ///     two-digit year of an RFC 850 date).
    /// - Returns: The wait (never negative), or `nil` when the value is neither form.
    public static func delay(from value: String, now: Date = Date()) -> Duration? {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let text = String(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        if let seconds = deltaSeconds(text) { return .seconds(seconds) }
        guard let date = HTTPDate(text, now: now) else { return nil }
        let seconds = date.date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(seconds * 1_000) : .zero
    }

    /// `1*DIGIT`; absurdly long values saturate at `Int64.max` seconds.
    static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text) ?? .max
    }
}
