#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An HTTP-date (RFC 9110 §5.6.7): an instant in UTC to the second, as the `Date`, `Expires`,
/// `Last-Modified` and `If-Modified-Since` fields carry it.
///
/// ```swift
/// HTTPDate("Sun, 06 Nov 1994 08:49:37 GMT")?.secondsSince1970  // 784111777 (IMF-fixdate)
/// HTTPDate("Sunday, 06-Nov-94 08:49:37 GMT")                    // the same instant (obsolete RFC 850 form)
/// HTTPDate("Sun Nov  6 08:49:37 1994")                          // the same instant (obsolete asctime form)
/// HTTPDate("Sun, 31 Nov 1994 08:49:37 GMT")                     // nil: November has 30 days
/// HTTPDate(Date()).imfFixdate                                   // a `Date` header value for now
/// ```
///
/// Reading accepts the three forms a recipient must accept (``init(_:now:)``); writing always
/// produces IMF-fixdate (``imfFixdate``), the only form a sender may generate. No `DateFormatter`
/// or `Calendar` is involved: the conversion is integer arithmetic on the proleptic Gregorian
/// calendar, in both directions.
///
/// A value is a whole number of seconds between ``earliest`` (0000-01-01) and ``latest``
/// (9999-12-31), the instants a four-digit year can write.
public struct HTTPDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// `Sat, 01 Jan 0000 00:00:00 GMT`, the earliest HTTP-date.
    public static let earliest = HTTPDate(checkedSecondsSince1970: -62_167_219_200)
    /// `Fri, 31 Dec 9999 23:59:59 GMT`, the latest HTTP-date.
    public static let latest = HTTPDate(checkedSecondsSince1970: 253_402_300_799)

    /// Seconds since 1970-01-01T00:00:00Z (negative before), leap seconds not counted.
    public let secondsSince1970: Int64

    /// The instant `seconds` after 1970-01-01T00:00:00Z, clamped to ``earliest`` ... ``latest``.
    /// - Parameter seconds: Seconds since 1970 (negative before).
    public init(secondsSince1970 seconds: Int64) {
        secondsSince1970 = min(max(seconds, Self.earliest.secondsSince1970), Self.latest.secondsSince1970)
    }

    /// The second that contains `date` (fractions are dropped toward the past), clamped to
    /// ``earliest`` ... ``latest``; a not-a-number time becomes ``earliest``.
    /// - Parameter date: The instant.
    public init(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard !seconds.isNaN else {
            self = .earliest
            return
        }
        let lower = Double(Self.earliest.secondsSince1970)
        let upper = Double(Self.latest.secondsSince1970)
        self.init(checkedSecondsSince1970: Int64(min(max(seconds, lower), upper)))
    }

    /// A value already known to be in range.
    private init(checkedSecondsSince1970 seconds: Int64) {
        secondsSince1970 = seconds
    }

    /// The day since 1970-01-01 this instant falls on, and the second within that day (0...86,399).
    var dayAndSecond: (daysSince1970: Int, secondOfDay: Int) {
        // Floor division: an instant before 1970 belongs to the day that starts before it.
        let remainder = secondsSince1970 % 86_400
        let days = (secondsSince1970 - remainder) / 86_400 - (remainder < 0 ? 1 : 0)
        return (Int(days), Int(remainder < 0 ? remainder + 86_400 : remainder))
    }

    /// The instant as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: TimeInterval(secondsSince1970)) }

    /// The IMF-fixdate, as ``imfFixdate``.
    public var description: String { imfFixdate }

    /// Whether `lhs` is earlier than `rhs`.
    /// - Parameters:
    ///   - lhs: One date.
    ///   - rhs: Another.
    /// - Returns: `true` when `lhs` comes first.
    public static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}
