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
/// HTTP-dates are read in the preferred IMF-fixdate form only; the obsolete RFC 850 and asctime
/// forms are treated as invalid, and an invalid value is ignored (the normal back-off applies).
/// A date in the past means "retry now" (zero).
public enum RetryAfter {
    /// The wait a `Retry-After` value asks for.
    /// - Parameters:
    ///   - value: The header value, e.g. `"3"` or `"Sun, 06 Nov 1994 08:49:37 GMT"`.
    ///   - now: The current wall-clock time, used to turn an HTTP-date into a wait.
    /// - Returns: The wait (never negative), or `nil` when the value is neither form.
    public static func delay(from value: String, now: Date = Date()) -> Duration? {
        let text = String(value.trimmingSpaces())
        if let seconds = deltaSeconds(text) { return .seconds(seconds) }
        guard let date = imfFixdate(text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds > 0 ? .milliseconds(seconds * 1_000) : .zero
    }

    /// `1*DIGIT`; absurdly long values saturate at `Int64.max` seconds.
    static func deltaSeconds(_ text: String) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text) ?? .max
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let dayNames = ["Mon,", "Tue,", "Wed,", "Thu,", "Fri,", "Sat,", "Sun,"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` → the instant it names.
    static func imfFixdate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 6, dayNames.contains(String(parts[0])), parts[5] == "GMT",
            parts[1].count == 2, let day = Int(parts[1]), (1...31).contains(day),
            let monthIndex = monthNames.firstIndex(of: String(parts[2])),
            parts[3].count == 4, let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (civil-from-days, inverted).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
