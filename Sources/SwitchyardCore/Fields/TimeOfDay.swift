/// `time-of-day` as read: `hour ":" minute ":" second`, each two digits, not yet checked.
struct TimeOfDay {
    /// 0...23 when valid.
    var hour: Int
    /// 0...59 when valid.
    var minute: Int
    /// 0...59 when valid, or 60 at 23:59 (a leap second).
    var second: Int

    /// Whether the time exists (a leap second only at 23:59:60).
    var isValid: Bool {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return false }
        return (0...59).contains(second) || (second == 60 && hour == 23 && minute == 59)
    }

    /// Seconds since the start of the day (86,400 for a leap second).
    var secondOfDay: Int { (hour * 60 + minute) * 60 + second }
}

extension HTTPDateScanner {
    /// Reads `time-of-day`: `08:49:37`.
    /// - Returns: The parts, unchecked, or `nil` when the text does not continue with that shape.
    mutating func timeOfDay() -> TimeOfDay? {
        guard let hour = number(digits: 2...2), skip(":"), let minute = number(digits: 2...2), skip(":"),
            let second = number(digits: 2...2)
        else { return nil }
        return TimeOfDay(hour: hour, minute: minute, second: second)
    }
}
