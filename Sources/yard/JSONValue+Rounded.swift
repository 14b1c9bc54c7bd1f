import SwitchyardJSON

extension JSONValue {
    /// `value` rounded to three decimals (a millisecond of seconds, a microsecond of milliseconds):
    /// the precision of every fractional number in yard's `--json` outputs.
    /// - Parameter value: The number; one that is not finite is written `null`.
    /// - Returns: The number value.
    static func rounded(_ value: Double) -> JSONValue {
        .number((value * 1_000).rounded() / 1_000)
    }
}
