/// The id of the exchange whose response a call shares, set in the call's context by a link that
/// answers several calls with one exchange (request coalescing does): statistics count such calls
/// apart, and events carry it.
///
/// ```swift
/// if let leader = context[SharedExchangeKey.self] { print("answered by exchange #\(leader)") }
/// ```
public enum SharedExchangeKey: ExchangeContextKey {
    /// The sharing exchange's ``ExchangeContext/id``.
    public typealias Value = UInt64
}
