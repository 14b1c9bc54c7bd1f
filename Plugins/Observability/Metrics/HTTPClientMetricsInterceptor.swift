import CoreMetrics
import HTTPTypes
public import SwitchyardCore
import Synchronization

/// Records each attempt into ``HTTPClientMetrics`` (OpenTelemetry's HTTP client metrics) when its
/// response body ends, fails or is dropped, or when the attempt throws.
///
/// In an assembled client (``SwitchyardCore/Plugin/httpMetrics(_:)``) it is the attempt link right
/// before the concurrency limiter.
public struct HTTPClientMetricsInterceptor: Interceptor {
    /// Where attempts are recorded.
    public let metrics: HTTPClientMetrics

    /// Creates the interceptor.
    /// - Parameter metrics: Where attempts are recorded.
    public init(metrics: HTTPClientMetrics) {
        self.metrics = metrics
    }

    /// Counts the attempt as active around the rest of the chain and records it when it is over.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let head = request.head
        let key = HTTPClientMetrics.Key(
            method: head.method, scheme: head.scheme, authority: head.authority,
            template: metrics.template(of: head, options: request.options), status: 0, errorType: nil)
        let active = metrics.activeRequests(key)
        let recording = AttemptRecording(metrics: metrics, key: key, active: active)
        var request = request
        if let body = request.body {
            if case .known(let length) = body.length {
                recording.requestBytes.store(Int(length), ordering: .relaxed)
            } else {
                request.body = body.tapped(by: RequestByteCounter(recording: recording))
            }
        }
        active.increment()
        var response: Response
        do {
            response = try await next(request)
        } catch {
            recording.finish(status: 0, errorType: HTTPClientSemantics.errorType(of: error))
            throw error
        }
        let status = response.head.status
        guard let body = response.body, body.bufferedBytes == nil else {
            // No body, or one already in memory: the attempt is over now.
            recording.responseBytes.store(response.body?.bufferedBytes?.count ?? 0, ordering: .relaxed)
            recording.finish(status: status.code, errorType: HTTPClientSemantics.errorType(of: status))
            return response
        }
        recording.status.store(status.code, ordering: .relaxed)
        response.body = body.tapped(by: ResponseTap(recording: recording))
        return response
    }
}

/// One attempt's measurements, recorded exactly once.
final class AttemptRecording: Sendable {
    let metrics: HTTPClientMetrics
    let key: HTTPClientMetrics.Key
    let active: Meter
    let startedAt = ContinuousClock.now
    let requestBytes = Atomic<Int>(-1)
    let responseBytes = Atomic<Int>(0)
    let status = Atomic<Int>(0)
    private let done = Atomic<Bool>(false)

    init(metrics: HTTPClientMetrics, key: HTTPClientMetrics.Key, active: Meter) {
        self.metrics = metrics
        self.key = key
        self.active = active
    }

    /// Records the attempt (once) with its final status (0: none) and `error.type`.
    func finish(status: Int, errorType: String?) {
        guard !done.exchange(true, ordering: .relaxed) else { return }
        let elapsed = startedAt.duration(to: .now)
        active.decrement()
        var key = key
        key.status = status
        key.errorType = errorType
        let instruments = metrics.instruments(key)
        let (seconds, attoseconds) = elapsed.components
        instruments.duration.record(Double(seconds) + Double(attoseconds) * 1e-18)
        let sent = requestBytes.load(ordering: .relaxed)
        if sent >= 0 { instruments.requestSize.record(sent) }
        instruments.responseSize.record(responseBytes.load(ordering: .relaxed))
    }
}

/// Counts the request body's bytes as the transport reads them (for a body of unknown length).
private struct RequestByteCounter: BodyTap {
    let recording: AttemptRecording

    func iterationStarted() { recording.requestBytes.store(0, ordering: .relaxed) }

    func received(_ chunk: ArraySlice<UInt8>) { recording.requestBytes.add(chunk.count, ordering: .relaxed) }
}

/// Counts the response body's bytes and records the attempt when the body ends, fails or is dropped.
private final class ResponseTap: BodyTap {
    let recording: AttemptRecording

    init(recording: AttemptRecording) { self.recording = recording }

    deinit {
        // Dropped unread or partly read: the attempt is over (the caller chose not to read on).
        let status = recording.status.load(ordering: .relaxed)
        recording.finish(status: status, errorType: HTTPClientSemantics.errorType(of: .init(code: status)))
    }

    func received(_ chunk: ArraySlice<UInt8>) { recording.responseBytes.add(chunk.count, ordering: .relaxed) }

    func ended() throws {
        let status = recording.status.load(ordering: .relaxed)
        recording.finish(status: status, errorType: HTTPClientSemantics.errorType(of: .init(code: status)))
    }

    func failed(_ error: SwitchyardError) {
        recording.finish(status: recording.status.load(ordering: .relaxed), errorType: HTTPClientSemantics.errorType(of: error))
    }
}
