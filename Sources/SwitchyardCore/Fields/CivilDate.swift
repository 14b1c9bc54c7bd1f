/// A day of the proleptic Gregorian calendar, with plain integer arithmetic to and from a count of
/// days since 1970-01-01 (no `Calendar`, no formatter, no time zone: HTTP-dates are always UTC).
///
/// For a plugin that reads a date format of its own (the cookie plugin's `Expires` dates, say)
/// and needs the instant it names without Foundation's calendar machinery:
///
/// ```swift
/// let day = CivilDate(year: 1994, month: 11, day: 6)
/// guard day.isValid else { return nil }
/// let seconds = Int64(day.daysSince1970) * 86_400 + Int64(secondsIntoTheDay)
/// ```
///
/// The parts are not checked when the date is made: ``isValid`` says whether they name a day that
/// exists, and ``daysSince1970`` is only meaningful when it does.
public struct CivilDate: Sendable, Equatable {
    /// The year (0 is 1 BC; HTTP-dates use 0...9999).
    public var year: Int
    /// The month, 1 (January) ... 12 (December).
    public var month: Int
    /// The day of the month, from 1.
    public var day: Int

    /// Days from 0000-01-01 to 1970-01-01.
    private static let daysFromYearZeroTo1970 = 719_528
    /// Days in the months of a common year before each month starts (January first).
    private static let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]

    /// Whether `year` has a 29 February: divisible by 4, except centuries not divisible by 400.
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1...12) in `year`.
    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether the date exists: a month of 1...12 and a day within that month (29 February only in
    /// a leap year). Any year is accepted.
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.days(inMonth: month, of: year)
    }

    /// Days from 1970-01-01 to this date (negative before it). Only meaningful when ``isValid``.
    public var daysSince1970: Int {
        let leapDay = month > 2 && Self.isLeapYear(year) ? 1 : 0
        let dayOfYear = Self.daysBeforeMonth[month - 1] + leapDay + day - 1
        return Self.daysFromYearZero(toStartOf: year) - Self.daysFromYearZeroTo1970 + dayOfYear
    }

    /// The date `days` days after 1970-01-01 (before it when negative).
    /// - Parameter days: The day count.
    init(daysSince1970 days: Int) {
        // 146,097 days make 400 Gregorian years: the estimate is off by at most one year, which the
        // two loops correct against the forward conversion.
        var year = 1970 + Self.floorDivide(days * 400, by: 146_097)
        while CivilDate(year: year, month: 1, day: 1).daysSince1970 > days { year -= 1 }
        while CivilDate(year: year + 1, month: 1, day: 1).daysSince1970 <= days { year += 1 }
        var remaining = days - CivilDate(year: year, month: 1, day: 1).daysSince1970
        var month = 1
        while remaining >= Self.days(inMonth: month, of: year) {
            remaining -= Self.days(inMonth: month, of: year)
            month += 1
        }
        self.init(year: year, month: month, day: remaining + 1)
    }

    /// Creates a date from its parts, unchecked (see ``isValid``).
    /// - Parameters:
    ///   - year: The year.
    ///   - month: The month, 1...12.
    ///   - day: The day of the month.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day of the week of the day `days` after 1970-01-01: 0 is Monday ... 6 is Sunday.
    /// - Parameter days: The day count.
    /// - Returns: 0...6.
    static func weekday(daysSince1970 days: Int) -> Int {
        (days % 7 + 7 + 3) % 7  // 1970-01-01 was a Thursday (3)
    }

    /// `dividend / divisor` rounded toward negative infinity (Swift's `/` rounds toward zero).
    static func floorDivide(_ dividend: Int, by divisor: Int) -> Int {
        let quotient = dividend / divisor
        return dividend % divisor < 0 ? quotient - 1 : quotient
    }

    /// Days from 0000-01-01 to 1 January of `year`: 365 a year plus one per leap year before it.
    private static func daysFromYearZero(toStartOf year: Int) -> Int {
        // Leap years in 0..<year: multiples of 4, less multiples of 100, plus multiples of 400
        // (floor division keeps the count right for negative years).
        let leapYears = floorDivide(year + 3, by: 4) - floorDivide(year + 99, by: 100) + floorDivide(year + 399, by: 400)
        return 365 * year + leapYears
    }
}
