public import SwitchyardCore

/// Published (`ExchangeEvent.Kind.plugin(_:)`) by the redirect link when it follows a redirect.
///
/// ```swift
/// bus.addObserver { event in
///     if let hop = event.plugin(Redirected.self) { print("\(hop.status) → \(hop.location)") }
/// }
/// ```
public struct Redirected: PluginEvent, Hashable {
    /// `redirected`.
    public var name: String { "redirected" }
    /// The redirect's status, e.g. 302.
    public let status: Int
    /// The target URL, without user information and with credential query values masked.
    public let location: String

    /// Creates the event.
    /// - Parameters:
    ///   - status: The redirect's status.
    ///   - location: The target URL as it may be shown.
    public init(status: Int, location: String) {
        self.status = status
        self.location = location
    }

    /// E.g. `302 → https://example.com/next`.
    public var detail: String { "\(status) → \(location)" }
}
