public import SwitchyardCore
import SwitchyardStandardLinks

/// Holds requests that ask for it (``SwitchyardCore/RequestOptions/waitsForConnectivity``) while the
/// ``ConnectivitySource`` reports ``ConnectivityStatus/offline``, until the network is back, the
/// request's deadline passes (`SwitchyardError.Kind.timeout`) or its task is cancelled
/// (`SwitchyardError.Kind.cancelled`).
///
/// Other requests pass straight through, offline or not: the source can be wrong, and the
/// transport's own failure (`SwitchyardError.Kind.connectionFailed`) is the truth. The check is
/// one Boolean per request that does not wait.
///
/// ``SwitchyardCore/Plugin/connectivity(_:)`` places it above the retry link, and it hands the retry link a
/// `AttemptHold`: a retry after a failure while offline waits for the network in the retry link:
///
/// ```swift
/// var request = try Request(url: "https://api.example.com/sync")
/// request.options.waitsForConnectivity = true
/// request.options.timeout = .seconds(120)
/// let response = try await client.send(request)   // waits while offline, up to 120 s
/// ```
///
/// A request that starts waiting publishes ``WaitingForConnectivity``.
public struct ConnectivityInterceptor: Interceptor {
    /// Where the status comes from.
    public let source: any ConnectivitySource
    /// What the retry link waits on while offline: made once, handed to every exchange.
    private let retryHold: any AttemptHold

    /// Creates the link.
    /// - Parameter source: Where the status comes from.
    public init(source: any ConnectivitySource) {
        self.source = source
        self.retryHold = ConnectivityRetryHold(source: source)
    }

    /// Waits for connectivity when the request asks to and the source says offline, then continues.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context (its deadline bounds the wait).
    ///   - next: The rest of the chain.
    /// - Returns: The response from further down the chain.
    /// - Throws: `SwitchyardError.Kind.timeout` or `SwitchyardError.Kind.cancelled` while
    ///   waiting, or the error from further down the chain.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        context.attemptHold = retryHold
        if request.options.waitsForConnectivity, source.status == .offline {
            context.publish(.plugin(WaitingForConnectivity()), request: request)
            try await source.waitForConnectivity(until: context.deadline)
        }
        return try await next(request)
    }
}

/// Holds retries while the source reports offline.
struct ConnectivityRetryHold: AttemptHold {
    let source: any ConnectivitySource

    var isHolding: Bool { source.status == .offline }

    var waitingEvent: (any PluginEvent)? { WaitingForConnectivity() }

    func waitUntilLifted(deadline: ContinuousClock.Instant) async -> AttemptHoldOutcome {
        switch await source.waitUntilOnline(deadline: deadline) {
        case .online: .lifted
        case .deadlinePassed: .deadlinePassed
        case .cancelled: .cancelled
        }
    }
}
