/// HTTP dates (RFC 9110 §5.6.7) as seconds since 1970: parses the IMF-fixdate form
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) that senders must use, and formats it. Other forms are
/// treated as invalid, which RFC 9111 allows (an invalid `Expires` means "already expired").
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday

    /// Seconds since 1970 of an IMF-fixdate, or `nil` when `text` is not one.
    /// - Parameter text: The field value.
    /// - Returns: The time, or `nil`.
    static func parse(_ text: some StringProtocol) -> Double? {
        // "Sun, 06 Nov 1994 08:49:37 GMT"
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(where: { $0 == parts[2] }),
            let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 + second)
    }

    /// The IMF-fixdate of `seconds` since 1970.
    /// - Parameter seconds: The time.
    /// - Returns: E.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func format(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let rest = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        let weekday = weekdays[((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(rest / 3_600)):\(two(rest % 3_600 / 60)):\(two(rest % 60))"
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(time) GMT"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of `days` since 1970-01-01 (the inverse of `daysFromCivil`).
    private static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
