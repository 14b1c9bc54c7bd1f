import SwitchyardCore

#if canImport(Network)
import Dispatch
@preconcurrency import Network

/// Connectivity from the Network framework's `NWPathMonitor` (Apple platforms): online while the
/// current path is satisfied, offline while it is not.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.connectivity(PathMonitorConnectivitySource()))
/// ```
///
/// The monitor runs from creation until the source is released; its first report arrives shortly
/// after creation, and until then ``status`` is ``ConnectivityStatus/unknown`` (requests are not
/// held back).
public final class PathMonitorConnectivitySource: ConnectivitySource {
    private let broadcast = StateBroadcast(ConnectivityStatus.unknown, keeping: .latest)
    /// Only started and cancelled here; its handler runs on `queue`.
    private let monitor: NWPathMonitor
    private let queue = DispatchQueue(label: "switchyard.connectivity.path-monitor")

    /// Creates a source that monitors every interface, or only interfaces of one type.
    /// - Parameter interfaceType: Watch only this interface type (e.g. `.wifi`); `nil` for all.
    public init(requiredInterfaceType interfaceType: NWInterface.InterfaceType? = nil) {
        monitor = interfaceType.map { NWPathMonitor(requiredInterfaceType: $0) } ?? NWPathMonitor()
        let broadcast = broadcast
        monitor.pathUpdateHandler = { path in
            broadcast.publishIfChanged(path.status == .satisfied ? .online : .offline)
        }
        monitor.start(queue: queue)
    }

    deinit {
        monitor.cancel()
    }

    /// The status of the last path the monitor reported.
    public var status: ConnectivityStatus { broadcast.current }

    /// The current status, then every change the monitor reports.
    /// - Returns: A new stream.
    public func changes() -> AsyncStream<ConnectivityStatus> { broadcast.subscribe() }
}
#endif
