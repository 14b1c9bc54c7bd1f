public import HTTPTypes

/// Something that happened to an exchange, published on an ``EventBus``.
///
/// The network layer never shows UI: it publishes events, and the app decides what to show.
/// Lifecycle moments (`started`, `retrying`, `redirected`, `succeeded`, `failed`, `cancelled`)
/// are separate kinds, so observers can follow an exchange without parsing messages.
public struct ExchangeEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable {
        /// The call entered the chain.
        case started
        /// Attempt `attempt` failed and attempt `attempt + 1` follows after `delay`.
        case retrying(attempt: Int, delay: Duration, reason: String)
        /// The chain follows a redirect with this status to `location`.
        case redirected(status: Int, location: String)
        /// The call ended with a response of this status.
        case succeeded(status: Int)
        /// The call failed with this error.
        case failed(SwitchyardError)
        /// The calling task was cancelled.
        case cancelled
        /// The call joined exchange `with` (the leader's id), already in flight for an identical
        /// request: its response comes from that exchange (see ``CoalescingPolicy``).
        case coalesced(with: UInt64)
        /// This exchange's outcome opened the circuit breaker of `host` (the host and port): requests
        /// to it fail fast with ``SwitchyardError/Kind/circuitOpen`` for `retryAfter`, then probes
        /// are let through. Published once per opening, by the exchange that caused it.
        case circuitOpened(host: String, retryAfter: Duration)
        /// This exchange's outcome (a successful probe) closed the circuit breaker of `host`.
        /// Published once per closing, by the exchange that caused it.
        case circuitClosed(host: String)
        /// The exchange waits for the ``ClientConfiguration/connectivity`` source to report the
        /// network back (``RequestOptions/waitsForConnectivity``, or a retry while offline).
        case waitingForConnectivity

        /// A short name: `started`, `retrying`, `redirected`, `succeeded`, `failed`, `cancelled`,
        /// `coalesced`, `circuitOpened`, `circuitClosed`, `waitingForConnectivity`.
        public var name: String {
            switch self {
            case .started: "started"
            case .retrying: "retrying"
            case .redirected: "redirected"
            case .succeeded: "succeeded"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .coalesced: "coalesced"
            case .circuitOpened: "circuitOpened"
            case .circuitClosed: "circuitClosed"
            case .waitingForConnectivity: "waitingForConnectivity"
            }
        }
    }

    /// What happened.
    public let kind: Kind
    /// The exchange's identifier (``ExchangeContext/id``).
    public let exchangeID: UInt64
    /// The request as the call made it (method, scheme, authority, path).
    public let request: HTTPRequest
    /// The request's tags.
    public let tags: Set<String>
    /// The call's user info (``RequestOptions/userInfo``).
    public var userInfo: [String: String] = [:]
    /// The attempt this event belongs to (1-based).
    public let attempt: Int
    /// When it happened.
    public let at: ContinuousClock.Instant
    /// Set on failure events worth telling the user about; `nil` otherwise. See ``PopUp``.
    public var popUp: PopUp?
    /// On `succeeded` events: where the response came from and its age (``ExchangeContext/provenance``);
    /// `nil` on other events.
    public var provenance: ResponseProvenance?
    /// For a call that shared another call's exchange: that exchange's id (the leader's), on the
    /// events published after it joined (``ExchangeContext/coalescedWith``); `nil` otherwise.
    public var coalescedWith: UInt64?

    /// Creates an event.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - exchangeID: The exchange's identifier.
    ///   - request: The request.
    ///   - tags: The request's tags.
    ///   - attempt: The attempt, 1-based.
    ///   - at: When it happened.
    ///   - popUp: A user-presentable message, if any.
    public init(
        kind: Kind, exchangeID: UInt64, request: HTTPRequest, tags: Set<String> = [], attempt: Int = 1,
        at: ContinuousClock.Instant = .now, popUp: PopUp? = nil
    ) {
        self.kind = kind
        self.exchangeID = exchangeID
        self.request = request
        self.tags = tags
        self.attempt = attempt
        self.at = at
        self.popUp = popUp
    }

    /// E.g. `#12 retrying GET /users?token=<redacted> (attempt 1)`: credential query values are
    /// masked (``QueryRedaction/standard``).
    public var description: String {
        "#\(exchangeID) \(kind.name) \(request.method) \(QueryRedaction.standard.redact(request.path ?? "/")) (attempt \(attempt))"
    }
}

/// A message for the user about a failed exchange: what an app shows in a banner or alert.
public struct PopUp: Sendable, Hashable {
    /// The user-presentable text, e.g. "You appear to be offline."
    public var message: String
    /// Whether the app should show it (`false` for failures users cannot act on or should not see).
    public var isWorthShowing: Bool
    /// How many identical pop-ups were coalesced into this one (1 when it stands alone).
    public var coalescedCount: Int

    /// Creates a pop-up.
    /// - Parameters:
    ///   - message: The user-presentable text.
    ///   - isWorthShowing: Whether the app should show it.
    ///   - coalescedCount: How many identical pop-ups this one stands for.
    public init(message: String, isWorthShowing: Bool = true, coalescedCount: Int = 1) {
        self.message = message
        self.isWorthShowing = isWorthShowing
        self.coalescedCount = coalescedCount
    }
}
