import NIOConcurrencyHelpers
import Synchronization

/// What passed through a ``LoopbackProxy``, counted as it happened.
public struct ProxyTraffic: Sendable, Equatable {
    /// Absolute-form requests forwarded, by target `host:port` (e.g. `"127.0.0.1:54321"`).
    public var forwarded: [String: Int] = [:]
    /// The absolute URLs of forwarded requests, in arrival order.
    public var forwardedURLs: [String] = []
    /// `CONNECT` tunnels opened, by target `host:port`.
    public var tunnels: [String: Int] = [:]
    /// Requests answered `407 Proxy Authentication Required` (credentials missing or wrong).
    public var refusedForCredentials = 0
    /// The decoded `user:password` of every `Proxy-Authorization: Basic` header seen, in order
    /// (refused ones included).
    public var credentials: [String] = []
    /// Requests the proxy answered itself with an error (400, 403, 502, …), 407 excluded.
    public var failed = 0

    /// Nothing passed: what a proxy that saw no request reports.
    public init() {}

    /// Every request forwarded or tunnelled, whatever its target.
    public var passedThrough: Int {
        forwarded.values.reduce(0, +) + tunnels.values.reduce(0, +)
    }
}

/// The proxy's counters, shared by its connections.
final class ProxyState: Sendable {
    let credentials: (user: String, password: String)?
    private let traffic = NIOLockedValueBox(ProxyTraffic())
    private let open = Atomic<Int>(0)

    init(credentials: (user: String, password: String)?) {
        self.credentials = credentials
    }

    var snapshot: ProxyTraffic { traffic.withLockedValue { $0 } }
    var openConnections: Int { open.load(ordering: .relaxed) }

    /// Counts a new client connection; `false` when the limit is reached (the caller closes it).
    func admit(limit: Int) -> Bool {
        if open.add(1, ordering: .relaxed).newValue > limit {
            open.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func closed() { open.subtract(1, ordering: .relaxed) }

    func record(_ update: (inout ProxyTraffic) -> Void) {
        traffic.withLockedValue { update(&$0) }
    }
}
