public import SwitchyardCore

/// Whether one request may share an in-flight identical exchange, whatever the client's
/// ``CoalescingPolicy`` says about its method and scope (``SwitchyardCore/RequestOptions/coalescing``).
///
/// ```swift
/// var request = try Request(url: "https://api.example.com/feed")
/// request.options.coalescing = .never     // this caller wants its own exchange
/// ```
///
/// Overrides apply only to a client with a policy (``SwitchyardCore/Plugin/coalescing(_:)``), and a
/// request with a body never coalesces.
public enum CoalescingOverride: Sendable, Hashable {
    /// The policy decides (the default).
    case automatic
    /// Coalesce this request even if its method or scope is not in the policy.
    case always
    /// Never coalesce this request: it gets an exchange of its own.
    case never
}

/// The per-request coalescing option (``SwitchyardCore/RequestOptions/coalescing``).
public enum CoalescingOptionKey: RequestOptionKey {
    /// ``CoalescingOverride/automatic``: the policy decides.
    public static let defaultValue = CoalescingOverride.automatic
}

extension RequestOptions {
    /// Whether this request may share an identical exchange already in flight, when the client
    /// coalesces (``Plugin/coalescing(_:)``): `.automatic` (the default) lets the policy
    /// decide; `.always` and `.never` decide for this request.
    public var coalescing: CoalescingOverride {
        get { self[CoalescingOptionKey.self] }
        set { self[CoalescingOptionKey.self] = newValue }
    }
}
