import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// State shared by every connection of one ``LoopbackServer``: counters and the disconnect recorder.
final class ServerState: Sendable {
    /// Tag → disconnect bookkeeping for `?tag=`.
    let disconnects = DisconnectRecorder()
    /// Key → state of the `/pages/{key}` lists.
    let pagedLists = PagedLists()
    /// Key → token and counts of the `/auth/{key}` route.
    let authTokens = AuthTokens()
    /// Key → counters and mode of the `/cache/{key}` routes.
    let cacheKeys = CacheRoutes.Keys()
    /// Key → requests held by the `/hold/{key}/{n}` and `/gate/{key}` routes, and their counts.
    let holds = HeldResponses()
    /// Key → what the HTTP/2 `/h2/{fault}/{key}/{n}` routes did with each request.
    let http2Faults = HTTP2Faults()
    /// Key → what the `/ws/{mode}` peers saw.
    let webSockets = WebSocketPeer.Ledger()
    /// Key → the `Last-Event-ID` of each `/events/{key}` request.
    let eventStreams = EventStreamRoutes.Ledger()
    /// Id → the upload resources of the `/resumable/{key}` routes.
    let resumableUploads = ResumableUploads()
    /// Id → arrivals of the `/soak/{id}` route.
    let soak = SoakRoute.Ledger()
    /// The fault-injection mode (``FaultPlan``), or `nil` when the server behaves.
    let faults: FaultInjector?

    init(faults: FaultPlan? = nil) {
        self.faults = faults.map(FaultInjector.init(plan:))
    }

    /// For a `/soak/{id}` request already routed, which arrival of its id it was; `nil` for other routes.
    func soakArrival(of request: IncomingRequest) -> Int? {
        let parts = request.target.components
        guard parts.count == 2, parts[0] == "soak" else { return nil }
        return soak.count(id: String(parts[1]))
    }

    private let openConnectionCount = Atomic<Int>(0)
    private let acceptedConnectionCount = Atomic<Int>(0)
    private let protocols = NIOLockedValueBox<[String]>([])
    private let nextConnectionID = Atomic<UInt64>(1)
    private let requestCounts = NIOLockedValueBox<[Substring: Int]>([:])
    private let flakyArrivals = NIOLockedValueBox<[String: [ContinuousClock.Instant]]>([:])
    private let bodyProgress = NIOLockedValueBox<[String: Int]>([:])
    private let rangeHeaders = NIOLockedValueBox<[String: [String?]]>([:])
    private let taggedChannels = NIOLockedValueBox<[String: [any Channel]]>([:])

    /// Number of client connections currently open.
    var openConnections: Int { openConnectionCount.load(ordering: .relaxed) }

    /// Client connections accepted so far (TCP connections, whatever they carry).
    var acceptedConnections: Int { acceptedConnectionCount.load(ordering: .relaxed) }

    /// The protocol of each accepted connection once known (`h2`, `http/1.1`), in the order decided.
    var negotiatedProtocols: [String] { protocols.withLockedValue { $0 } }

    /// Called once per accepted TCP connection, before any byte is read.
    func connectionAccepted() {
        acceptedConnectionCount.add(1, ordering: .relaxed)
    }

    /// Records the protocol an accepted connection speaks (ALPN's choice, or `http/1.1`).
    func recordProtocol(_ name: String) {
        protocols.withLockedValue { $0.append(name) }
    }

    /// Called when a connection becomes active; returns its unique id.
    func connectionOpened() -> UInt64 {
        openConnectionCount.add(1, ordering: .relaxed)
        return nextConnectionID.add(1, ordering: .relaxed).oldValue
    }

    /// Called once when a connection that was counted by ``connectionOpened()`` closes.
    func connectionClosed(_ id: UInt64, hadTags: Bool) {
        if hadTags { disconnects.connectionClosed(id) }
        openConnectionCount.subtract(1, ordering: .relaxed)
    }

    /// Counts one received request for `path` (query excluded).
    func countRequest(path: Substring) {
        requestCounts.withLockedValue { $0[path, default: 0] += 1 }
    }

    /// Forgets the count of `path` (a `/soak/{id}` path once its id is taken: a long soak's unique
    /// paths would otherwise grow this table by one entry per request).
    func forgetRequestCount(path: String) {
        requestCounts.withLockedValue { _ = $0.removeValue(forKey: path[...]) }
    }

    /// Requests received so far for exactly `path`.
    func requestCount(path: String) -> Int {
        requestCounts.withLockedValue { $0[path[...]] ?? 0 }
    }

    /// Records an arrival for the `/flaky` key `key` and returns its 1-based attempt number.
    func nextFlakyAttempt(key: String) -> Int {
        flakyArrivals.withLockedValue { arrivals in
            arrivals[key, default: []].append(.now)
            return arrivals[key]?.count ?? 0
        }
    }

    /// When each request for the `/flaky` key `key` arrived, in order.
    func flakyArrivalTimes(key: String) -> [ContinuousClock.Instant] {
        flakyArrivals.withLockedValue { $0[key] ?? [] }
    }

    /// Records that `bytes` generated body bytes of the response tagged `tag` were handed to the socket.
    func recordBodyProgress(tag: String, bytes: Int) {
        bodyProgress.withLockedValue { $0[tag] = bytes }
    }

    /// Remembers `channel` as serving a request tagged `tag`, for ``dropConnections(tag:)``.
    func recordChannel(_ channel: any Channel, tag: String) {
        taggedChannels.withLockedValue { $0[tag, default: []].append(channel) }
    }

    /// Closes every connection that served a request tagged `tag`.
    func dropConnections(tag: String) {
        let channels = taggedChannels.withLockedValue { $0.removeValue(forKey: tag) ?? [] }
        for channel in channels { channel.close(promise: nil) }
    }

    /// Records the `Range` header (or its absence) of a request tagged `tag`.
    func recordRangeHeader(tag: String, value: String?) {
        rangeHeaders.withLockedValue { $0[tag, default: []].append(value) }
    }

    /// The `Range` header of each request tagged `tag`, in arrival order (`nil`: none).
    func rangeHeaders(tag: String) -> [String?] {
        rangeHeaders.withLockedValue { $0[tag] ?? [] }
    }

    /// Generated body bytes handed to the socket so far for the response tagged `tag`.
    func bodyBytesSent(tag: String) -> Int {
        bodyProgress.withLockedValue { $0[tag] ?? 0 }
    }
}
