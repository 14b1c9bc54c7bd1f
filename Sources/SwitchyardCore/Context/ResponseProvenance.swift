/// Where a response came from and how old it is: the network, or a cache (fresh, revalidated with
/// the server, or stale).
///
/// A cache interceptor sets it on the exchange (``ExchangeContext/provenance``); every layer above
/// reads it there, and the `succeeded` event carries it (``ExchangeEvent/provenance``), so a screen
/// can say "showing data from 5 minutes ago":
///
/// ```swift
/// let response = try await client.send(request)
/// if response.context.provenance.source == .stale, let age = response.context.provenance.age {
///     banner = "Offline: showing data from \(age.components.seconds / 60) minutes ago"
/// }
/// ```
public struct ResponseProvenance: Sendable, Hashable, CustomStringConvertible {
    /// Where a response came from.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// The network: the server sent this response for this request.
        case network
        /// A cache, without contacting the server (a fresh stored response, or an offline read).
        case cache
        /// A cache, after the server confirmed with `304 Not Modified` that the stored response is current.
        case revalidated
        /// A cache, although the stored response is stale (served because the network failed, or offline).
        case stale
    }

    /// Where the response came from.
    public var source: Source
    /// How old the response is (its `Age`, RFC 9111 §4.2.3); `nil` when unknown (a network response).
    public var age: Duration?

    /// Creates a provenance.
    /// - Parameters:
    ///   - source: Where the response came from.
    ///   - age: How old it is, if known.
    public init(source: Source, age: Duration? = nil) {
        self.source = source
        self.age = age
    }

    /// A response straight from the network: the default of every exchange.
    public static let network = ResponseProvenance(source: .network)

    /// E.g. `cache (age 300s)` or `network`.
    public var description: String {
        guard let age else { return source.rawValue }
        return "\(source.rawValue) (age \(age.components.seconds)s)"
    }
}
