/// Per-request settings that travel with a ``Request`` through the chain.
///
/// ```swift
/// var options = RequestOptions()
/// options.timeout = .seconds(5)
/// options.tags = ["profile"]
/// options.maxResponseBytes = 1 << 20
/// options[TraceSampledKey.self] = true   // a plugin's option (``RequestOptionKey``)
/// ```
///
/// The kernel's options are what every request has; features add theirs as typed keys
/// (``RequestOptionKey``), read and written through ``subscript(_:)`` or the property the feature
/// declares.
public struct RequestOptions: Sendable, Hashable {
    /// How long the whole exchange may take, measured from when the client starts it.
    /// `nil` means no timeout beyond ``deadline``.
    public var timeout: Duration?
    /// An absolute point by which the exchange must finish. Combined with ``timeout``: the earlier wins.
    public var deadline: ContinuousClock.Instant?
    /// Free-form labels for plugins, statistics and events (e.g. the screen that asked).
    public var tags: Set<String>
    /// The largest response body the exchange accepts; larger bodies fail with
    /// ``SwitchyardError/Kind/responseTooLarge`` while streaming, without reading the rest.
    /// `nil` means no limit for streamed bodies and ``Client/defaultMaxBufferedResponseBytes`` for buffered ones.
    public var maxResponseBytes: Int64?
    /// The caller's own labels for this call (a screen, a row, a reason), carried into every
    /// ``ExchangeEvent`` of the call and into the API layer's results. Keep secrets out: events are
    /// shown and logged.
    public var userInfo: [String: String] = [:]
    /// The options plugins declare (``RequestOptionKey``), by key.
    @usableFromInline var pluginValues = RequestOptionValues()

    /// A plugin's option: the value set for this request, or the key's default.
    ///
    /// ```swift
    /// options[TraceSampledKey.self] = true   // usually through a property the plugin declares
    /// ```
    /// - Parameter key: The key the plugin declares.
    @inlinable
    public subscript<Key: RequestOptionKey>(key: Key.Type) -> Key.Value {
        get { pluginValues.value(for: key) ?? Key.defaultValue }
        set { pluginValues.set(newValue, for: key) }
    }

    /// Creates options; every setting defaults to "not set".
    /// - Parameters:
    ///   - timeout: How long the exchange may take.
    ///   - deadline: An absolute deadline.
    ///   - tags: Labels for plugins and events.
    ///   - maxResponseBytes: The largest accepted response body.
    public init(
        timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        tags: Set<String> = [],
        maxResponseBytes: Int64? = nil
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.tags = tags
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
