public import HTTPTypes
public import SwitchyardActivity
public import SwitchyardCore

/// Where a response came from (the exchange's `ResponseProvenance.Source`, set by a cache plugin).
public enum ResponseSource: String, Sendable, Hashable {
    /// The network (through the client's transport).
    case network
    /// A cache, without contacting the server.
    case cache
    /// A cache, after the server confirmed with `304 Not Modified` that the stored response is current.
    case revalidated
    /// A cache, although the stored response is stale (the network failed, or the call was offline).
    case stale
}

/// What a call's response was, besides its value: the HTTP head, the exchange (id, attempts,
/// timings including the decode phase), the request, and the caller's user info.
public struct ResponseInfo: Sendable {
    /// The request as it was sent.
    public let request: HTTPRequest
    /// Status and header fields of the response.
    public let head: HTTPResponse
    /// The exchange's context: `ExchangeContext.id`, attempts, `ExchangeContext.timings` and
    /// `ExchangeContext.pipelineTimings` (with `PipelineTimings.decoding`).
    public let context: ExchangeContext
    /// Where the response came from.
    public let source: ResponseSource
    /// How old the response is when it came from a cache (its `Age`); `nil` for a network response.
    public let age: Duration?
    /// The body's size in bytes.
    public let bodySize: Int
    /// The caller's user info for this call (also in the request's `RequestOptions.userInfo`).
    public let userInfo: [String: String]
    /// What a forgiving decode converted or skipped (lenient fields, `skippingInvalidElements`).
    public internal(set) var decodingReport = DecodingReport()
    /// The body as the server sent it, when the endpoint asked to keep it
    /// (``Endpoint/keepingRawBody(upTo:)``), up to its bound; `nil` otherwise.
    public internal(set) var rawBody: [UInt8]?

    /// The transport's phase timings.
    public var timings: TransferTimings { context.timings }
    /// How long decoding took, when the call decoded a value.
    public var decodingTime: Duration? { context.pipelineTimings.total(of: PipelineTimings.decodingStage) }
}

/// A decoded value with the response it came from.
public struct APIResponse<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The response it came from.
    public let info: ResponseInfo
}

/// The state of a call, for a screen to switch over, in the vocabulary calls, transfers and paged
/// lists share (`ActivityPhase`):
/// `notStarted → running ⇄ queued / waitingToRetry → succeeded / noData / failed / cancelled`.
///
/// ```swift
/// switch handle.state {
/// case .notStarted, .queued, .running: showSpinner()
/// case .waitingToRetry(let attempt, _): showSpinner(caption: "Trying again (attempt \(attempt))…")
/// case .succeeded(let response): show(response.value)
/// case .noData: showEmptyView()
/// case .failed(let error): showError(error)
/// case .cancelled: break
/// }
/// ```
public enum CallState<Value: Sendable>: Sendable {
    /// Created, not started: cancelling now means it never touches the wire.
    case notStarted
    /// Waiting behind a concurrency or rate limit before its exchange is sent.
    case queued
    /// In the chain or on the wire.
    case running
    /// An attempt failed; attempt `attempt` follows after `delay` (`nil`: when the network is back).
    case waitingToRetry(attempt: Int, delay: Duration?)
    /// Ended with a value.
    case succeeded(APIResponse<Value>)
    /// Ended successfully without a value: 204, an empty body or `null` at the key path (an empty
    /// list too when the endpoint asks for it with `emptyMeansNoData()`).
    case noData(ResponseInfo)
    /// Ended with an error (never `SwitchyardError.Kind.cancelled`: that is ``cancelled``).
    case failed(SwitchyardError)
    /// Cancelled before it ended.
    case cancelled

    /// The state's phase, without its values.
    public var phase: ActivityPhase {
        switch self {
        case .notStarted: .notStarted
        case .queued: .queued
        case .running: .running
        case .waitingToRetry(let attempt, let delay): .waitingToRetry(attempt: attempt, delay: delay)
        case .succeeded: .succeeded
        case .noData: .noData
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    /// Whether the call is over.
    public var isFinal: Bool { phase.isFinal }

    /// The phase's name: `notStarted`, `queued`, `running`, `waitingToRetry`, `succeeded`,
    /// `noData`, `failed` or `cancelled`.
    public var name: String { phase.name }

    /// The value, when the call succeeded.
    public var value: Value? {
        if case .succeeded(let response) = self { return response.value }
        return nil
    }

    /// The error, when the call failed.
    public var error: SwitchyardError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}
