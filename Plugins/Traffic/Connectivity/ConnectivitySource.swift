public import SwitchyardCore

/// Tells the client whether the network is reachable, and when that changes.
///
/// Give one to a client with ``SwitchyardCore/Plugin/connectivity(_:)``. Then a request with
/// ``SwitchyardCore/RequestOptions/waitsForConnectivity`` waits while the source reports
/// ``ConnectivityStatus/offline`` (up to its deadline) instead of failing at once, and
/// `RetryInterceptor` waits for the network to come back instead of spending its attempts while
/// offline. Requests that do not ask to wait are sent even when the source says offline: the
/// source can be wrong, and the transport's own failure is the truth.
///
/// Shipped sources: ``ManualConnectivitySource`` (set by the app or a test),
/// `PathMonitorConnectivitySource` (Apple platforms, Network framework) and
/// `RouteConnectivitySource` (Linux, default route and interfaces). Any other signal (a
/// reachability library, an MDM profile) fits in a few lines:
///
/// ```swift
/// final class FlagConnectivity: ConnectivitySource {
///     let manual = ManualConnectivitySource()
///     var status: ConnectivityStatus { manual.status }
///     func changes() -> AsyncStream<ConnectivityStatus> { manual.changes() }
/// }
/// ```
///
/// Connectivity changes are not `ExchangeEvent`s (those belong to one exchange): watch
/// ``changes()`` for them. An exchange that starts waiting publishes
/// ``WaitingForConnectivity``.
///
/// ``status`` is read on the request path: keep it cheap (a stored value, no I/O on every read).
public protocol ConnectivitySource: Sendable {
    /// The status now.
    var status: ConnectivityStatus { get }

    /// The current status, then every change, until the stream is dropped or its task is
    /// cancelled. Each call returns a new stream; a slow reader sees the latest status, not every
    /// intermediate one.
    /// - Returns: The stream of statuses.
    func changes() -> AsyncStream<ConnectivityStatus>
}

extension ConnectivitySource {
    /// Returns once the source reports anything but ``ConnectivityStatus/offline``.
    ///
    /// ```swift
    /// try await connectivity.waitForConnectivity(until: .now + .seconds(30))
    /// ```
    /// - Parameter deadline: When to give up waiting; `nil` waits until connectivity or cancellation.
    /// - Throws: `SwitchyardError.Kind.timeout` when the deadline passes while offline,
    ///   `SwitchyardError.Kind.cancelled` when the task is cancelled.
    public func waitForConnectivity(until deadline: ContinuousClock.Instant?) async throws(SwitchyardError) {
        switch await waitUntilOnline(deadline: deadline) {
        case .online: return
        case .cancelled: throw .cancelled
        case .deadlinePassed:
            throw .timedOut("It waited for the network to come back (the connectivity source reported offline).")
        }
    }

    /// How a wait for connectivity ended.
    func waitUntilOnline(deadline: ContinuousClock.Instant?) async -> ConnectivityWait {
        if status != .offline { return .online }
        let updates = changes()  // starts with the current status: no change between the check and here is missed
        let online: Bool? = await withTaskGroup(of: Bool?.self) { group in
            group.addTask {
                for await status in updates where status != .offline { return true }
                return nil  // cancelled, or the source ended its stream
            }
            if let deadline {
                group.addTask {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    return false
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if Task.isCancelled { return .cancelled }
        // A source that ends its stream can no longer say "offline": proceed and let the transport tell.
        return online == false ? .deadlinePassed : .online
    }
}

/// How a wait for connectivity ended.
enum ConnectivityWait {
    case online
    case deadlinePassed
    case cancelled
}
