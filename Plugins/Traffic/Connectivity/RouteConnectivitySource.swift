import SwitchyardCore

/// Connectivity from the system's routing tables (Linux; elsewhere it reports `unknown`): online while there is a usable default
/// route (`/proc/net/route` or `/proc/net/ipv6_route`), offline while there is none, unknown when
/// the tables cannot be read (then requests are never held back).
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.connectivity(RouteConnectivitySource(interval: .seconds(2))))
/// ```
///
/// Reading ``status`` costs a lock and a clock reading; the tables are read again at most once per
/// ``interval`` (a read takes microseconds). While a ``changes()`` stream is open, one task reads
/// them every ``interval`` and reports changes; with no stream open nothing runs in the background.
/// A default route is a good sign, not proof (a captive portal, a dead upstream): requests that do
/// not wait are always sent.
public final class RouteConnectivitySource: ConnectivitySource {
    /// The default time between two reads of the routing tables: 2 seconds.
    public static let defaultInterval: Duration = .seconds(2)

    /// The longest time a status is reused before the tables are read again.
    public let interval: Duration
    private let probe: @Sendable () -> ConnectivityStatus
    private let broadcast: StateBroadcast<ConnectivityStatus>
    private let lastProbe: Lock<ContinuousClock.Instant>
    private let poller = Lock<Task<Void, Never>?>(nil)

    /// Creates a source and reads the tables once.
    /// - Parameters:
    ///   - interval: How often the tables are read (at least every 50 ms; default 2 s).
    ///   - probe: What reads the status; `nil` (the default) reads the routing tables (inject one
    ///     in tests).
    public init(
        interval: Duration = RouteConnectivitySource.defaultInterval,
        probe: (@Sendable () -> ConnectivityStatus)? = nil
    ) {
        let interval = max(interval, .milliseconds(50))
        let probe = probe ?? { RouteTable.systemStatus() }
        self.interval = interval
        self.probe = probe
        self.lastProbe = Lock(.now)
        let weakSelf = WeakBox<RouteConnectivitySource>()
        self.broadcast = StateBroadcast(probe(), keeping: .latest) { subscribers in weakSelf.value?.subscribersChanged(subscribers) }
        weakSelf.value = self
    }

    deinit {
        poller.withLock { $0?.cancel() }
    }

    /// The status as of the last read of the tables, read again when older than ``interval``.
    public var status: ConnectivityStatus {
        let now = ContinuousClock.now
        let stale = lastProbe.withLock { last in
            guard last.duration(to: now) >= interval else { return false }
            last = now
            return true
        }
        if stale { broadcast.publishIfChanged(probe()) }
        return broadcast.current
    }

    /// The current status, then every change, found by reading the tables every ``interval``.
    /// - Returns: A new stream.
    public func changes() -> AsyncStream<ConnectivityStatus> { broadcast.subscribe() }

    /// Starts polling with the first stream and stops it with the last.
    private func subscribersChanged(_ subscribers: Int) {
        poller.withLock { poller in
            if subscribers == 0 {
                poller?.cancel()
                poller = nil
            } else if poller == nil {
                poller = Task { [weak self, interval] in
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        guard let self, !Task.isCancelled else { return }
                        self.lastProbe.withLock { $0 = .now }
                        self.broadcast.publishIfChanged(self.probe())
                    }
                }
            }
        }
    }
}

/// A weak reference that can be filled in after the referent's initialisation.
final class WeakBox<Object: AnyObject & Sendable>: Sendable {
    private let object = Lock<Weak?>(nil)
    private struct Weak { weak var value: Object? }

    var value: Object? {
        get { object.withLock { $0?.value } }
        set { object.withLock { $0 = Weak(value: newValue) } }
    }
}
