public import HTTPTypes

/// Something that happened to an exchange, published on an ``EventBus``.
///
/// The network layer never shows UI: it publishes events, and the app decides what to show.
/// Lifecycle moments (`started`, `succeeded`, `failed`, `cancelled`) are separate kinds, and each
/// plugin publishes its own typed events (``PluginEvent``), so observers follow an exchange without
/// parsing messages.
public struct ExchangeEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable {
        /// The call entered the chain.
        case started
        /// The call ended with a response of this status.
        case succeeded(status: Int)
        /// The call failed with this error.
        case failed(SwitchyardError)
        /// The calling task was cancelled.
        case cancelled
        /// An event a plugin declares and publishes (its own ``PluginEvent`` type); read it with
        /// ``ExchangeEvent/plugin(_:)``.
        case plugin(any PluginEvent)

        /// A short name: `started`, `succeeded`, `failed`, `cancelled`, or a plugin event's
        /// ``PluginEvent/name``.
        public var name: String {
            switch self {
            case .started: "started"
            case .succeeded: "succeeded"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .plugin(let event): event.name
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
    /// The exchange's context, for events published by the chain (``ExchangeContext/publish(_:request:)``):
    /// observers read plugins' typed values there (`event.context?[SomeKey.self]`). The values are
    /// the context's as they are when read, not when the event was published.
    public var context: ExchangeContext?

    /// Creates an event.
    /// - Parameters:
    ///   - kind: What happened.
    ///   - exchangeID: The exchange's identifier.
    ///   - request: The request.
    ///   - tags: The request's tags.
    ///   - attempt: The attempt, 1-based.
    ///   - at: When it happened.
    public init(
        kind: Kind, exchangeID: UInt64, request: HTTPRequest, tags: Set<String> = [], attempt: Int = 1,
        at: ContinuousClock.Instant = .now
    ) {
        self.kind = kind
        self.exchangeID = exchangeID
        self.request = request
        self.tags = tags
        self.attempt = attempt
        self.at = at
    }

    /// The plugin event of type `type`, when this is one.
    ///
    /// ```swift
    /// if let warning = event.plugin(QuotaWarning.self) { print(warning.remaining) }
    /// ```
    /// - Parameter type: The plugin's event type.
    /// - Returns: The plugin's event, or `nil` for any other kind.
    public func plugin<Event: PluginEvent>(_ type: Event.Type) -> Event? {
        guard case .plugin(let event) = kind else { return nil }
        return event as? Event
    }

    /// E.g. `#12 started GET /users?token=<redacted> (attempt 1)`: credential query values are
    /// masked (``QueryRedaction/standard``).
    public var description: String {
        "#\(exchangeID) \(kind.name) \(request.method) \(QueryRedaction.standard.redact(request.path ?? "/")) (attempt \(attempt))"
    }
}

/// An event kind a plugin declares, publishes with ``ExchangeContext/publish(_:request:)`` as
/// ``ExchangeEvent/Kind/plugin(_:)``, and its observers read with ``ExchangeEvent/plugin(_:)``.
///
/// ```swift
/// public struct QuotaWarning: PluginEvent {
///     public var name: String { "quotaWarning" }
///     public let remaining: Int
/// }
///
/// context.publish(.plugin(QuotaWarning(remaining: 3)), request: request)
/// ```
public protocol PluginEvent: Sendable {
    /// The kind's short, stable name (e.g. `quotaWarning`), as ``ExchangeEvent/Kind/name`` gives it.
    var name: String { get }
    /// A short human-readable detail for logs and event listings (e.g. `3 calls left`).
    var detail: String { get }
}

extension PluginEvent {
    /// Empty by default.
    public var detail: String { "" }
}
