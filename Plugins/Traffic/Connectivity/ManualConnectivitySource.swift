import SwitchyardCore

/// A connectivity source the app (or a test) sets by hand.
///
/// ```swift
/// let connectivity = ManualConnectivitySource(.offline)
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.connectivity(connectivity))
/// // … later, from the app's own reachability signal:
/// connectivity.status = .online
/// ```
public final class ManualConnectivitySource: ConnectivitySource {
    private let broadcast: StateBroadcast<ConnectivityStatus>

    /// Creates a source with this initial status.
    /// - Parameter status: The status until it is set (default `online`).
    public init(_ status: ConnectivityStatus = .online) {
        broadcast = StateBroadcast(status, keeping: .latest)
    }

    /// The status; setting a different one wakes every waiting request and every ``changes()`` stream.
    public var status: ConnectivityStatus {
        get { broadcast.current }
        set { broadcast.publishIfChanged(newValue) }
    }

    /// The current status, then every change.
    /// - Returns: A new stream.
    public func changes() -> AsyncStream<ConnectivityStatus> { broadcast.subscribe() }
}
