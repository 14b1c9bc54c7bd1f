/// Writing an HTTP-date in the form senders must generate.
extension HTTPDate {
    /// The IMF-fixdate of this instant (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`:
    /// the form to send in `Date`, `Expires`, `Last-Modified` or `If-Modified-Since`.
    public var imfFixdate: String {
        let (days, secondOfDay) = dayAndSecond
        let civil = CivilDate(daysSince1970: days)
        var text = ""
        text.reserveCapacity(29)
        text += Self.dayNames[CivilDate.weekday(daysSince1970: days)]
        text += ", "
        Self.append(civil.day, width: 2, to: &text)
        text += " " + Self.monthNames[civil.month - 1] + " "
        Self.append(civil.year, width: 4, to: &text)
        text += " "
        Self.append(secondOfDay / 3_600, width: 2, to: &text)
        text += ":"
        Self.append(secondOfDay / 60 % 60, width: 2, to: &text)
        text += ":"
        Self.append(secondOfDay % 60, width: 2, to: &text)
        text += " GMT"
        return text
    }

    /// Appends `value` (not negative) in decimal, zero-padded on the left to `width` digits.
    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.utf8.count < width { text += String(repeating: "0", count: width - digits.utf8.count) }
        text += digits
    }
}
