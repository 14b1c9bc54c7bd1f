public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) when the retry policy would have retried an attempt
/// but the ``RetryBudget`` had no retry left: the attempt's outcome became the call's.
///
/// The caller learns it from the error too: a refused failure keeps its kind (`connectionFailed`,
/// `timeout`, …) and says so in its message, and so does the `httpStatus` error the status
/// validation makes of a refused `503` (`ExchangeContext.retryBudgetRefusal` carries the event to
/// it). A client that sees many of these either meets a long outage (the budget works as meant) or
/// retries more of its traffic than the budget allows: see ``RetryBudget`` and
/// `ClientConfiguration.retryBudget`.
///
/// ```swift
/// bus.addObserver { event in
///     if let refused = event.plugin(RetryBudgetRefused.self) { metrics.count("retry.refused", refused.reason) }
/// }
/// ```
public struct RetryBudgetRefused: PluginEvent, Hashable {
    /// `retryBudgetRefused`.
    public var name: String { "retryBudgetRefused" }
    /// The attempt whose retry was refused (1-based): the call's last attempt.
    public let attempt: Int
    /// Why the policy wanted a retry, e.g. `HTTP 503` or `connection failed`.
    public let reason: String
    /// The refused attempt's status, or `nil` when it failed without a response.
    public let status: Int?
    /// The budget's ``RetryBudget/ratio``.
    public let ratio: Double
    /// The budget's ``RetryBudget/minRetriesPerSecond``.
    public let minRetriesPerSecond: Double
    /// The budget's ``RetryBudget/window``.
    public let window: Duration

    /// Creates the event.
    /// - Parameters:
    ///   - attempt: The attempt whose retry was refused.
    ///   - reason: Why the policy wanted a retry.
    ///   - status: The attempt's status, or `nil` when it failed without a response.
    ///   - budget: The budget that refused it.
    public init(attempt: Int, reason: String, status: Int?, budget: RetryBudget) {
        self.attempt = attempt
        self.reason = reason
        self.status = status
        self.ratio = budget.ratio
        self.minRetriesPerSecond = budget.minRetriesPerSecond
        self.window = budget.window
    }

    /// The sentence the refused call's error ends with, e.g. `Not retried after attempt 1 (HTTP 503):
    /// the retry budget is spent (20 % of requests plus 1 retry a second, over 10 s; see
    /// ClientConfiguration.retryBudget).`
    public var explanation: String {
        "Not retried after attempt \(attempt) (\(reason)): the retry budget is spent"
            + " (\(Self.figure(ratio * 100)) % of requests plus \(Self.figure(minRetriesPerSecond)) retry a second,"
            + " over \(Self.figure(window.milliseconds / 1_000)) s; see ClientConfiguration.retryBudget)."
    }

    /// `after attempt N (REASON)`.
    public var detail: String { "after attempt \(attempt) (\(reason))" }

    /// `value` rounded to two decimals, without trailing zeros (`20`, `0.5`, `12.25`).
    static func figure(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let hundredths = Int((value * 100).rounded())
        let whole = "\(hundredths < 0 ? "-" : "")\(abs(hundredths) / 100)"
        let fraction = abs(hundredths) % 100
        if fraction == 0 { return whole }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// Where the retry link leaves its ``RetryBudgetRefused`` for the links above it.
enum RetryBudgetRefusalKey: ExchangeContextKey {
    typealias Value = RetryBudgetRefused
}

extension ExchangeContext {
    /// The refusal of this exchange's last retry by the ``RetryBudget``, if the budget refused one:
    /// the response the caller got (or the status validation turned into an error) is the attempt
    /// that was not retried.
    public internal(set) var retryBudgetRefusal: RetryBudgetRefused? {
        get { self[RetryBudgetRefusalKey.self] }
        set { self[RetryBudgetRefusalKey.self] = newValue }
    }
}
