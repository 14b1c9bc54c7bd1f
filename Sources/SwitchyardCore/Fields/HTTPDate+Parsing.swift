#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Reading the three forms of HTTP-date a recipient must accept (RFC 9110 §5.6.7).
extension HTTPDate {
    /// Reads an HTTP-date in any of the three forms RFC 9110 §5.6.7 says a recipient must accept:
    ///
    /// - IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`, the form senders generate;
    /// - the obsolete RFC 850 form, `Sunday, 06-Nov-94 08:49:37 GMT`: its two-digit year is the
    ///   year ending in those digits that is not more than 50 years after `now`, else the most
    ///   recent past one (read in 2025, `94` is 1994 and `30` is 2030);
    /// - the obsolete asctime form, `Sun Nov  6 08:49:37 1994` (UTC), the day padded with a space
    ///   as the grammar says, or with a zero, or not at all.
    ///
    /// Spaces and tabs around the value are ignored. Inside it the grammar is followed exactly:
    /// single spaces, fixed-width numbers, and the day and month names in their exact case — the RFC
    /// says HTTP-date is case-sensitive, and no sender of a date in these forms writes them otherwise.
    /// The day name must be one of the seven but is not checked against the date: it is redundant,
    /// and the RFC gives no rule for a mismatch. Dates that do not exist are rejected (a month
    /// other than the twelve, 31 November, 29 February outside a leap year, hour 24, minute 60);
    /// second 60 is accepted at 23:59 only (a leap second), and counts as the next midnight.
    ///
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: When the value is read; used only to place an RFC 850 date's two-digit year.
    /// - Returns: `nil` when `text` is none of the three forms, or names no instant between
    ///   ``earliest`` and ``latest``.
    public init?(_ text: some StringProtocol, now: Date = Date()) {
        self.init(text, now: now, ignoringCaseOfNames: false)
    }

    /// Reads an HTTP-date as ``init(_:now:)`` does, optionally matching the day, month and zone
    /// names (and every other letter) regardless of case: RFC 9111 §4.2 asks a cache recipient to
    /// ("a cache recipient SHOULD match day, week, and time-zone names case-insensitively"), so
    /// `Sun, 06 NOV 1994 08:49:37 gmt` and `SUNDAY, 06-NOV-94 08:49:37 GMT` name the RFC's
    /// instant. Everything else about the grammar stays exact.
    /// - Parameters:
    ///   - text: The field value.
    ///   - now: When the value is read; used only to place an RFC 850 date's two-digit year.
    ///   - ignoringCaseOfNames: Whether names match in any case (`false`: exactly as written).
    /// - Returns: `nil` when `text` is none of the three forms, or names no instant between
    ///   ``earliest`` and ``latest``.
    public init?(_ text: some StringProtocol, now: Date = Date(), ignoringCaseOfNames: Bool) {
        let value = String(text).trimmingSpaces()
        let ignoringCase = ignoringCaseOfNames
        guard
            let seconds = Self.imfFixdate(value, ignoringCase)
                ?? Self.rfc850Date(value, ignoringCase, now: HTTPDate(now)) ?? Self.asctimeDate(value, ignoringCase)
        else { return nil }
        self.init(secondsSince1970: seconds)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` → seconds since 1970.
    private static func imfFixdate(_ value: Substring, _ ignoringCase: Bool) -> Int64? {
        var scanner = HTTPDateScanner(value, ignoringCase: ignoringCase)
        guard scanner.name(among: dayNames) != nil, scanner.skip(", "),
            let day = scanner.number(digits: 2...2), scanner.skip(" "),
            let month = scanner.name(among: monthNames), scanner.skip(" "),
            let year = scanner.number(digits: 4...4), scanner.skip(" "),
            let time = scanner.timeOfDay(), scanner.skip(" GMT"), scanner.isAtEnd
        else { return nil }
        return secondsSince1970(CivilDate(year: year, month: month + 1, day: day), time)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT` → seconds since 1970, the century chosen relative to `now`.
    private static func rfc850Date(_ value: Substring, _ ignoringCase: Bool, now: HTTPDate) -> Int64? {
        var scanner = HTTPDateScanner(value, ignoringCase: ignoringCase)
        guard scanner.name(among: longDayNames) != nil, scanner.skip(", "),
            let day = scanner.number(digits: 2...2), scanner.skip("-"),
            let month = scanner.name(among: monthNames), scanner.skip("-"),
            let twoDigitYear = scanner.number(digits: 2...2), scanner.skip(" "),
            let time = scanner.timeOfDay(), scanner.skip(" GMT"), scanner.isAtEnd
        else { return nil }
        let year = fullYear(twoDigitYear, month: month + 1, day: day, time: time, now: now)
        return secondsSince1970(CivilDate(year: year, month: month + 1, day: day), time)
    }

    /// `Sun Nov  6 08:49:37 1994` → seconds since 1970.
    private static func asctimeDate(_ value: Substring, _ ignoringCase: Bool) -> Int64? {
        var scanner = HTTPDateScanner(value, ignoringCase: ignoringCase)
        guard scanner.name(among: dayNames) != nil, scanner.skip(" "),
            let month = scanner.name(among: monthNames), scanner.skip(" "),
            let day = scanner.skip(" ") ? scanner.number(digits: 1...1) : scanner.number(digits: 1...2), scanner.skip(" "),
            let time = scanner.timeOfDay(), scanner.skip(" "),
            let year = scanner.number(digits: 4...4), scanner.isAtEnd
        else { return nil }
        return secondsSince1970(CivilDate(year: year, month: month + 1, day: day), time)
    }

    /// The year an RFC 850 date's last two digits stand for (RFC 9110 §5.6.7): the latest year
    /// ending in them that is at most 50 years after `now`, one century earlier when the date
    /// itself would then be more than 50 years ahead (it falls later in the year than `now` does).
    private static func fullYear(_ twoDigits: Int, month: Int, day: Int, time: TimeOfDay, now: HTTPDate) -> Int {
        let (days, secondOfDay) = now.dayAndSecond
        let today = CivilDate(daysSince1970: days)
        let limit = today.year + 50
        let year = limit - ((limit - twoDigits) % 100 + 100) % 100
        let isTooFarAhead = year == limit && (month, day, time.secondOfDay) > (today.month, today.day, secondOfDay)
        return isTooFarAhead ? year - 100 : year
    }

    /// The instant of `time` on `civil`, or `nil` when either does not exist or the instant is
    /// outside ``earliest`` ... ``latest``.
    private static func secondsSince1970(_ civil: CivilDate, _ time: TimeOfDay) -> Int64? {
        guard civil.isValid, time.isValid else { return nil }
        let seconds = Int64(civil.daysSince1970) * 86_400 + Int64(time.secondOfDay)
        guard (earliest.secondsSince1970...latest.secondsSince1970).contains(seconds) else { return nil }
        return seconds
    }
}
