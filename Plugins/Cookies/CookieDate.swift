public import Foundation
import SwitchyardCore

/// The cookie-date algorithm of RFC 6265bis (§5.1.1), which reads every date form servers put in
/// `Expires`: IMF-fixdate, RFC 850 with two-digit years, asctime, and the many variants between
/// (dashes, missing weekdays, `GMT` or not, extra words).
///
/// The date is split into tokens at delimiters; the first token that looks like a time, a day of
/// the month, a month and a year — in that order of checks — gives each part.
public enum CookieDate {
    /// The date `text` names, or `nil` when a part is missing or out of range.
    /// - Parameter text: An `Expires` attribute value.
    /// - Returns: The date (UTC).
    public static func parse(_ text: some StringProtocol) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var dayOfMonth: Int?
        var month: Int?
        var year: Int?
        let text = Substring(text)
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = parseTime(token) {
                time = found
            } else if dayOfMonth == nil, let found = leadingNumber(token, digits: 1...2) {
                dayOfMonth = found
            } else if month == nil, let found = parseMonth(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let dayOfMonth, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        let day = CivilDate(year: year, month: month, day: dayOfMonth)
        guard year >= 1601, day.isValid, time.hour <= 23, time.minute <= 59, time.second <= 59 else { return nil }
        let seconds = Int64(day.daysSince1970) * 86_400 + Int64(time.hour * 3_600 + time.minute * 60 + time.second)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// A number of `digits` digits at the start of `token`, followed by the end or a non-digit.
    private static func leadingNumber(_ token: Substring.UTF8View.SubSequence, digits: ClosedRange<Int>) -> Int? {
        let count = token.prefix(while: isDigit).count
        guard digits.contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hh:mm:ss` with one or two digits each, optionally followed by a non-digit and anything.
    private static func parseTime(_ token: Substring.UTF8View.SubSequence) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let digits = rest.prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(digits.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (fields[0], fields[1], fields[2])
    }

    private static let months: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        .map { Array($0.utf8) }

    /// A month name's first three letters (any case) at the start of `token`.
    private static func parseMonth(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let lowered = token.prefix(3).map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        return months.firstIndex(of: lowered).map { $0 + 1 }
    }
}
