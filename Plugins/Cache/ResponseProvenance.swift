public import SwitchyardCore

/// Where a response came from and how old it is: the network, or a cache (fresh, revalidated with
/// the server, or stale).
///
/// The cache sets it on the exchange (``SwitchyardCore/ExchangeContext/provenance``); every layer
/// above reads it there, and so does an observer of the `succeeded` event
/// (``SwitchyardCore/ExchangeEvent/provenance``), so a screen can say "showing data from 5 minutes
/// ago":
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

/// Where the cache leaves a response's provenance in its exchange's context.
enum ProvenanceKey: ExchangeContextKey {
    typealias Value = ResponseProvenance
}

extension ExchangeContext {
    /// Where the exchange's response came from and how old it is: ``ResponseProvenance/network``
    /// unless the cache answered (it sets this before it returns its response). A call answered by
    /// another exchange's response (request coalescing) has that exchange's.
    public var provenance: ResponseProvenance {
        get { self[ProvenanceKey.self] ?? .network }
        set { self[ProvenanceKey.self] = newValue }
    }
}

extension ExchangeEvent {
    /// On a `succeeded` event: where the response came from and its age
    /// (``SwitchyardCore/ExchangeContext/provenance``); `nil` on other events.
    public var provenance: ResponseProvenance? {
        guard case .succeeded = kind else { return nil }
        return context?.provenance
    }
}
