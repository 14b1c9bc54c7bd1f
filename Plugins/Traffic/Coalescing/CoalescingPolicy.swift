public import HTTPTypes
public import SwitchyardCore

/// Which requests share one exchange while an identical one is in flight, and how far a caller of a
/// shared exchange may fall behind (given to ``SwitchyardCore/Plugin/coalescing(_:)``; without that
/// plugin nothing coalesces).
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.plugins.append(.coalescing(CoalescingPolicy(scopes: [RequestScope(hosts: ["api.example.com"])])))
/// let client = try Client(transport: CurlTransport(), configuration: configuration)
/// // 100 screens asking for /config at once: one request on the wire, 100 full bodies.
/// ```
///
/// ### What is identical
///
/// Two requests coalesce when both are eligible and they have the same method, the same full URL
/// (scheme, authority, path and query) and the same values of the key fields: `Accept`,
/// `Accept-Encoding` and `Authorization` always, plus ``additionalKeyFields``. A request is
/// eligible when it has no body, its ``SwitchyardCore/RequestOptions/coalescing`` is not `.never`,
/// and either it says `.always` or its method is in ``methods`` and it matches one of ``scopes``.
///
/// ### Who joins, and what each caller gets
///
/// The first caller (the leader) starts the exchange in a task the coalescing link owns — not in
/// the leader's task, so cancelling the leader does not end it for the others. A caller with the
/// same key joins while that exchange waits for its response head; once the head is delivered, a
/// new caller starts an exchange of its own (nobody is handed a body that started without them).
/// Every caller receives the head, its own `ExchangeContext` (followers carry
/// ``SwitchyardCore/ExchangeContext/coalescedWith``) and its own readable body; the shared exchange's failure
/// reaches every caller.
///
/// ### Bodies and slow readers
///
/// The shared body is read at the pace of the fastest caller and each chunk is copied (by
/// reference) into every caller's own buffer. A caller that has more than
/// ``maxBufferedBytesPerCaller`` bytes waiting unread (one chunk always fits) is cut off: its
/// buffer is dropped and its next read throws ``SwitchyardCore/SwitchyardError/Kind/coalescedReaderTooSlow`` — it
/// never sees a truncated body as complete. The others go on. A body held in memory (a cache hit, a
/// stub) is handed to every caller whole, and when a single caller remains at the head, it gets
/// the transport's body directly.
///
/// ### Cancellation
///
/// Cancelling one caller's task ends only that caller's wait or read (with
/// `SwitchyardError.Kind.cancelled`). When the last caller that can still read is gone (cancelled,
/// body dropped, or cut off), the shared exchange is cancelled and the transport closes its connection.
///
/// ### Deadlines
///
/// The shared exchange runs with the leader's context, so the leader's deadline bounds it. A caller
/// joins only an exchange whose deadline ends no later than its own (a caller without a deadline
/// joins any): one with a tighter deadline starts an exchange of its own, so no caller ever waits
/// past its deadline for someone else's exchange (it may end earlier, with the leader's `timeout`).
public struct CoalescingPolicy: Sendable, Hashable {
    /// The default for ``maxBufferedBytesPerCaller``: 1 MiB.
    public static let defaultMaxBufferedBytesPerCaller = 1 << 20
    /// The fields that are always part of the key: `Accept`, `Accept-Encoding`, `Authorization`.
    public static let alwaysKeyedFields: [HTTPField.Name] = [.accept, .acceptEncoding, .authorization]
    /// The default for ``additionalKeyFields``: the fields that change what a server answers to
    /// the same URL (`Cookie`, `Range`, `If-Range`, `If-None-Match`, `If-Modified-Since`).
    public static let defaultAdditionalKeyFields: [HTTPField.Name] = [.cookie, .range, .ifRange, .ifNoneMatch, .ifModifiedSince]

    /// The requests that coalesce (any one scope matching is enough); `[.all]` by default.
    public var scopes: [RequestScope]
    /// The methods that coalesce: `GET` and `HEAD` by default. Only add methods that are safe to
    /// answer once for many callers.
    public var methods: Set<HTTPRequest.Method>
    /// Header fields that are part of the key besides ``alwaysKeyedFields``.
    public var additionalKeyFields: [HTTPField.Name]
    /// How many body bytes may wait unread for one caller of a shared exchange before that caller
    /// fails with ``SwitchyardCore/SwitchyardError/Kind/coalescedReaderTooSlow`` (at least one chunk always fits).
    public var maxBufferedBytesPerCaller: Int

    /// Creates a policy.
    /// - Parameters:
    ///   - scopes: The requests that coalesce (any scope matching is enough).
    ///   - methods: The methods that coalesce.
    ///   - additionalKeyFields: Header fields that are part of the key besides `Accept`,
    ///     `Accept-Encoding` and `Authorization`.
    ///   - maxBufferedBytesPerCaller: The unread bytes one caller may fall behind.
    public init(
        scopes: [RequestScope] = [.all],
        methods: Set<HTTPRequest.Method> = [.get, .head],
        additionalKeyFields: [HTTPField.Name] = CoalescingPolicy.defaultAdditionalKeyFields,
        maxBufferedBytesPerCaller: Int = CoalescingPolicy.defaultMaxBufferedBytesPerCaller
    ) {
        self.scopes = scopes
        self.methods = methods
        self.additionalKeyFields = additionalKeyFields
        self.maxBufferedBytesPerCaller = max(1, maxBufferedBytesPerCaller)
    }

    /// Whether `request` may share an exchange under this policy: a check of its override, body,
    /// method and scopes; nothing is built.
    /// - Parameter request: The request.
    /// - Returns: `true` when the request is eligible.
    public func isEligible(_ request: Request) -> Bool {
        switch request.options.coalescing {
        case .never: return false
        case .always: return request.body == nil
        case .automatic: break
        }
        guard request.body == nil, methods.contains(request.head.method) else { return false }
        for scope in scopes where scope.matches(request) { return true }
        return false
    }
}
