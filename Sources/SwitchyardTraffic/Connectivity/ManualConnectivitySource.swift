import SwitchyardCore

/// A connectivity source the app (or a test) sets by hand.
///
/// ```swift
/// let connectivity = ManualConnectivitySource(.offline)
/// var configuration = ClientConfiguration()
/// configuration.connectivity = connectivity
/// // … later, from the app's own reachability signal:
/// connectivity.status = .online
/// ```
public final class ManualConnectivitySource: ConnectivitySource {
    private let broadcast: ConnectivityBroadcast

    /// Creates a source with this initial status.
    /// - Parameter status: The status until it is set (default `online`).
    public init(_ status: ConnectivityStatus = .online) {
        broadcast = ConnectivityBroadcast(status)
    }

    /// The status; setting a different one wakes every waiting request and every ``changes()`` stream.
    public var status: ConnectivityStatus {
        get { broadcast.status }
        set { broadcast.update(newValue) }
    }

    /// The current status, then every change.
    /// - Returns: A new stream.
    public func changes() -> AsyncStream<ConnectivityStatus> { broadcast.changes() }

    deinit { broadcast.finish() }
}
