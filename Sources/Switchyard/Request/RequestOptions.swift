/// Per-request settings that travel with a ``Request`` through the chain.
///
/// ```swift
/// var options = RequestOptions()
/// options.timeout = .seconds(5)
/// options.tags = ["profile"]
/// options.isSilent = true          // failures publish no pop-up-worthy event
/// options.maxResponseBytes = 1 << 20
/// options.retry = .disabled        // one attempt, whatever the RetryInterceptor's policy
/// options.priority = .userInitiated // first out of a concurrency-limit queue
/// options.coalescing = .never      // never share an identical request's exchange
/// options.waitsForConnectivity = true  // while offline, wait for the network (up to the timeout)
/// ```
public struct RequestOptions: Sendable, Hashable {
    /// How long the whole exchange may take, measured from when the client starts it.
    /// `nil` means no timeout beyond ``deadline``.
    public var timeout: Duration?
    /// An absolute point by which the exchange must finish. Combined with ``timeout``: the earlier wins.
    public var deadline: ContinuousClock.Instant?
    /// Free-form labels for plugins, statistics and events (e.g. the screen that asked).
    public var tags: Set<String>
    /// When `true`, failures of this request are not worth showing to a person.
    public var isSilent: Bool
    /// The largest response body the exchange accepts; larger bodies fail with
    /// ``SwitchyardError/Kind/responseTooLarge`` while streaming, without reading the rest.
    /// `nil` means no limit for streamed bodies and ``Client/defaultMaxBufferedResponseBytes`` for buffered ones.
    public var maxResponseBytes: Int64?
    /// Changes to the retry policy for this request only (see ``RetryInterceptor``); `nil` keeps
    /// the interceptor's policy. E.g. `options.retry = .disabled`.
    public var retry: RetryOverride? = nil
    /// Whether the caller decodes the response body after the exchange and reports the time with
    /// ``ExchangeContext/recordDecoding(_:)``: timing statistics then hold the call's record until
    /// that report, so it carries the `decoding` phase. Set by the API layer (`SwitchyardAPI`); a
    /// record whose report never comes is kept, without the phase, when the context ends.
    public var recordsDecoding = false
    /// The caller's own labels for this call (a screen, a row, a reason), carried into every
    /// ``ExchangeEvent`` of the call and into the API layer's results. Keep secrets out: events are
    /// shown and logged.
    public var userInfo: [String: String] = [:]
    /// Where this request stands in a ``ConcurrencyLimits`` queue (default ``RequestPriority/utility``).
    public var priority: RequestPriority = .utility
    /// Whether this request may share an identical exchange already in flight, when the client
    /// coalesces (``ClientConfiguration/coalescing``): `.automatic` (the default) lets the policy
    /// decide; `.always` and `.never` decide for this request.
    public var coalescing: CoalescingOverride = .automatic
    /// Whether the request waits, while the client's ``ClientConfiguration/connectivity`` source
    /// reports offline, for the network to come back (up to its deadline, cancellable) instead of
    /// being sent at once. Default `false`: sent anyway (the source can be wrong). Has no effect
    /// on a client without a connectivity source. See ``ConnectivityInterceptor``.
    public var waitsForConnectivity = false

    /// Creates options; every setting defaults to "not set".
    /// - Parameters:
    ///   - timeout: How long the exchange may take.
    ///   - deadline: An absolute deadline.
    ///   - tags: Labels for plugins and events.
    ///   - isSilent: Whether failures should stay quiet.
    ///   - maxResponseBytes: The largest accepted response body.
    public init(
        timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        tags: Set<String> = [],
        isSilent: Bool = false,
        maxResponseBytes: Int64? = nil
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.tags = tags
        self.isSilent = isSilent
        self.maxResponseBytes = maxResponseBytes
    }

    /// The earlier of ``deadline`` and `start + timeout`, or `nil` when neither is set.
    /// - Parameter start: When the exchange started.
    /// - Returns: The effective deadline.
    public func effectiveDeadline(from start: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        switch (deadline, timeout) {
        case (let deadline?, let timeout?): return min(deadline, start.advanced(by: timeout))
        case (let deadline?, nil): return deadline
        case (nil, let timeout?): return start.advanced(by: timeout)
        case (nil, nil): return nil
        }
    }
}
