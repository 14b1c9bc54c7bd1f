import Foundation
import Switchyard
import Testing

/// `HTTPDate`: the three forms RFC 9110 §5.6.7 says a recipient must accept, the RFC 850
/// century rule, invalid dates, IMF-fixdate formatting, and `Retry-After` with each form.
@Suite struct HTTPDateTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, the RFC's example.
    static let example: Int64 = 784_111_777
    /// Sun, 15 Jun 2025 12:00:00 GMT, the "now" of the century-rule tests.
    static let midJune2025 = Date(timeIntervalSince1970: 1_749_945_600 + 12 * 3_600)

    static func seconds(_ text: String, now: Date = midJune2025) -> Int64? {
        HTTPDate(text, now: now)?.secondsSince1970
    }

    @Test func readsTheThreeForms() {
        #expect(Self.seconds("Sun, 06 Nov 1994 08:49:37 GMT") == Self.example)
        #expect(Self.seconds("Sunday, 06-Nov-94 08:49:37 GMT") == Self.example)
        #expect(Self.seconds("Sun Nov  6 08:49:37 1994") == Self.example)
        // asctime's day: padded with a space (the grammar), with a zero (2DIGIT), or not at all.
        #expect(Self.seconds("Sun Nov 6 08:49:37 1994") == Self.example)
        #expect(Self.seconds("Sun Nov 06 08:49:37 1994") == Self.example)
        #expect(Self.seconds("Thu Jan  1 00:00:00 1970") == 0)
        #expect(Self.seconds("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(Self.seconds("Wed, 31 Dec 1969 23:59:59 GMT") == -1)
    }

    @Test func surroundingSpacesAndTabsAreIgnored() {
        #expect(Self.seconds(" \tSun, 06 Nov 1994 08:49:37 GMT \t") == Self.example)
        #expect(Self.seconds("  Sunday, 06-Nov-94 08:49:37 GMT") == Self.example)
        #expect(Self.seconds("Sun Nov  6 08:49:37 1994\t") == Self.example)
        #expect(HTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"[...]) != nil)  // a Substring
    }

    @Test func anRFC850YearIsTheLatestNotMoreThanFiftyYearsAhead() {
        // Read on 15 June 2025 at noon: 2075-06-15T12:00:00Z is exactly 50 years ahead.
        #expect(Self.year("Sunday, 06-Nov-94 08:49:37 GMT") == 1994)
        #expect(Self.year("Tuesday, 01-Jan-30 00:00:00 GMT") == 2030)
        #expect(Self.year("Sunday, 15-Jun-25 12:00:00 GMT") == 2025)
        #expect(Self.year("Tuesday, 31-Dec-24 23:59:59 GMT") == 2024)
        #expect(Self.year("Saturday, 15-Jun-75 12:00:00 GMT") == 2075)
        #expect(Self.year("Saturday, 15-Jun-75 12:00:01 GMT") == 1975)
        #expect(Self.year("Sunday, 16-Jun-75 00:00:00 GMT") == 1975)
        #expect(Self.year("Friday, 14-Jun-75 23:59:59 GMT") == 2075)
        #expect(Self.year("Thursday, 01-Jan-76 00:00:00 GMT") == 1976)
        #expect(Self.year("Saturday, 01-Jan-00 00:00:00 GMT") == 2000)
        // The century moves with the reading time.
        let lateIn2099 = Date(timeIntervalSince1970: 4_102_444_800 - 1)  // 2099-12-31T23:59:59Z
        #expect(Self.year("Friday, 01-Jan-00 00:00:00 GMT", now: lateIn2099) == 2100)
        #expect(Self.year("Wednesday, 01-Jan-49 00:00:00 GMT", now: lateIn2099) == 2149)
        #expect(Self.year("Saturday, 01-Jan-50 00:00:00 GMT", now: lateIn2099) == 2050)
        let in1970 = Date(timeIntervalSince1970: 0)
        #expect(Self.year("Sunday, 06-Nov-94 08:49:37 GMT", now: in1970) == 1994)
        #expect(Self.year("Sunday, 06-Nov-21 08:49:37 GMT", now: in1970) == 1921)
        // A 29 February exists in the century the rule picks, or the date is invalid.
        #expect(Self.year("Tuesday, 29-Feb-00 00:00:00 GMT") == 2000)
        #expect(HTTPDate("Thursday, 29-Feb-00 00:00:00 GMT", now: Date(timeIntervalSince1970: -2_203_891_200)) == nil)
    }

    @Test func leapYears() {
        #expect(Self.seconds("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        #expect(Self.seconds("Sat, 29 Feb 2020 00:00:00 GMT") != nil)
        #expect(Self.seconds("Tue Feb 29 00:00:00 2000") == 951_782_400)
        #expect(Self.seconds("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(Self.seconds("Thu Feb 29 00:00:00 1900") == nil)
        #expect(Self.seconds("Fri, 29 Feb 2019 00:00:00 GMT") == nil)
        #expect(Self.seconds("Thu, 01 Mar 1900 00:00:00 GMT") == -2_203_891_200)
        #expect(Self.seconds("Mon, 01 Mar 2100 00:00:00 GMT") == 4_107_542_400)  // 2100-01-01 + 59 days: 2100 is not leap
    }

    @Test func aLeapSecondIsTheNextMidnight() {
        #expect(Self.seconds("Wed, 31 Dec 2008 23:59:60 GMT") == 1_230_768_000)
        #expect(Self.seconds("Wed, 31 Dec 2008 12:00:60 GMT") == nil)
        #expect(Self.seconds("Fri, 31 Dec 9999 23:59:60 GMT") == nil)  // beyond the last writable second
    }

    @Test func invalidValuesAreRejected() {
        for value in [
            "", "  ", "0", "-1", "soon", "Sun, 06 Nov 1994", "Sun, 06 Nov 99999999999999999 08:49:37 GMT",
            // Bad parts.
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 32 Dec 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:37 GMT",
            "Sun, 06 Nov 1994 08:49:61 GMT", "Son, 06 Nov 1994 08:49:37 GMT", "Sunday, 31-Apr-94 08:49:37 GMT",
            "Sun Nov 31 08:49:37 1994", "Sun Nov  6 24:49:37 1994",
            // Not the grammar: widths, separators, zones, trailing text, the names of another form.
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 94 08:49:37 GMT", "Sun,  06 Nov 1994 08:49:37 GMT",
            "Sun 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT",
            "Sun, 06 Nov 1994 08:49:37", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 06 Nov 1994 08:49:37 GMT x", "Sun, 06 Nov 1994 08:49:37 GMTGMT", "Sunday, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sunday, 06 Nov 94 08:49:37 GMT",
            "Sunday, 6-Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37", "Sun Nov  6 08:49:37 94",
            "Sun Nov  06 08:49:37 1994", "Sun Nov   6 08:49:37 1994", "Sun Nov  6 08:49:37 1994 GMT",
            "Sunday Nov  6 08:49:37 1994", "Sun, Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT\r\n",
            // Case: HTTP-date is case-sensitive (RFC 9110 §5.6.7).
            "sun, 06 nov 1994 08:49:37 gmt", "Sun, 06 NOV 1994 08:49:37 GMT", "SUNDAY, 06-Nov-94 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 gmt", "sun Nov  6 08:49:37 1994",
            // Digits that are not ASCII, signs.
            "Sun, ０6 Nov 1994 08:49:37 GMT", "Sun, +6 Nov 1994 08:49:37 GMT", "Sun Nov -6 08:49:37 1994"
        ] {
            #expect(HTTPDate(value, now: Self.midJune2025) == nil, "\(value)")
        }
    }

    @Test func theDayNameIsNotCheckedAgainstTheDate() {
        // Redundant, and RFC 9110 gives a recipient no rule for a mismatch.
        #expect(Self.seconds("Mon, 06 Nov 1994 08:49:37 GMT") == Self.example)
    }

    @Test func writesIMFFixdate() {
        #expect(HTTPDate(secondsSince1970: Self.example).imfFixdate == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate(secondsSince1970: 0).imfFixdate == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate(secondsSince1970: -1).imfFixdate == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate(secondsSince1970: 951_825_600).imfFixdate == "Tue, 29 Feb 2000 12:00:00 GMT")
        #expect(HTTPDate.earliest.imfFixdate == "Sat, 01 Jan 0000 00:00:00 GMT")
        #expect(HTTPDate.latest.imfFixdate == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate(secondsSince1970: -61_851_600_000).imfFixdate == "Fri, 01 Jan 0010 00:00:00 GMT")
        #expect("\(HTTPDate(secondsSince1970: Self.example))" == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func convertsToAndFromDate() {
        let date = Date(timeIntervalSince1970: 784_111_777.75)
        #expect(HTTPDate(date).secondsSince1970 == Self.example)
        #expect(HTTPDate(date).date == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate(Date(timeIntervalSince1970: -0.5)).secondsSince1970 == -1)
        #expect(HTTPDate(Date(timeIntervalSince1970: .infinity)) == .latest)
        #expect(HTTPDate(Date(timeIntervalSince1970: -.infinity)) == .earliest)
        #expect(HTTPDate(Date(timeIntervalSince1970: .nan)) == .earliest)
        #expect(HTTPDate(secondsSince1970: .max) == .latest)
        #expect(HTTPDate(secondsSince1970: .min) == .earliest)
        #expect(HTTPDate(secondsSince1970: 1) > HTTPDate(secondsSince1970: 0))
    }

    @Test func everyWrittenDateReadsBackAsTheSameInstant() {
        var seconds = HTTPDate.earliest.secondsSince1970
        while seconds <= HTTPDate.latest.secondsSince1970 {
            let date = HTTPDate(secondsSince1970: seconds)
            #expect(HTTPDate(date.imfFixdate) == date, "\(date)")
            seconds += 3_196_811  // about 37 days, and a different time of day each step
        }
        for edge in [HTTPDate.earliest, .latest, HTTPDate(secondsSince1970: 0), HTTPDate(secondsSince1970: -1)] {
            #expect(HTTPDate(edge.imfFixdate) == edge)
        }
    }

    @Test func writesWhatFoundationsGregorianCalendarSays() {
        // An independent check of the arithmetic (Foundation switches to the Julian calendar before
        // October 1582, so the comparison starts in 1601).
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var seconds: Int64 = -11_644_473_600  // 1601-01-01
        while seconds <= HTTPDate.latest.secondsSince1970 {
            let date = HTTPDate(secondsSince1970: seconds)
            #expect(date.imfFixdate == formatter.string(from: date.date))
            seconds += 7_654_321
        }
    }

    @Test func retryAfterReadsEachDateForm() {
        let now = Date(timeIntervalSince1970: TimeInterval(Self.example - 90))
        for value in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(RetryAfter.delay(from: value, now: now) == .seconds(90), "\(value)")
            #expect(RetryAfter.delay(from: " \(value) ", now: now) == .seconds(90), "\(value)")
            #expect(RetryAfter.delay(from: value, now: now.addingTimeInterval(200)) == .zero, "\(value)")
        }
        #expect(RetryAfter.delay(from: "Sun Nov  6 08:49:37 1994 GMT", now: now) == nil)
        #expect(RetryAfter.delay(from: "Sunday, 31-Nov-94 08:49:37 GMT", now: now) == nil)
    }

    private static func year(_ text: String, now: Date = midJune2025) -> Int? {
        guard let written = HTTPDate(text, now: now)?.imfFixdate else { return nil }
        return Int(written.split(separator: " ")[3])
    }
}
