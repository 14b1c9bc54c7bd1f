/// The day and month names of HTTP-dates (RFC 9110 §5.6.7), exactly as written: HTTP-date is
/// case-sensitive.
extension HTTPDate {
    /// `day-name`, Monday first (the order of ``CivilDate/weekday(daysSince1970:)``).
    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    /// `day-name-l`, the obsolete RFC 850 form's full day names, Monday first.
    static let longDayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// `month`, January first.
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
