public import SwitchyardCore
import Synchronization

/// Enforces a response-size limit while the body streams: a body that grows past it fails with
/// `SwitchyardError.Kind.responseTooLarge` at the chunk that crosses it, never by buffering first.
///
/// Requests that set no `RequestOptions.maxResponseBytes` get the limit, so the transport enforces
/// it on the wire (and closes the connection); the body is also counted here, so a custom transport
/// that ignores the option cannot exceed it either. A request's own, smaller or larger, limit wins.
///
/// ```swift
/// var configuration = ClientConfiguration()
/// configuration.maxResponseBytes = 10 << 20    // 10 MiB for every call that sets no limit
/// ```
public struct ResponseSizeLimitInterceptor: Interceptor {
    /// The limit for requests that set none.
    public let maxResponseBytes: Int64

    /// Creates the interceptor.
    /// - Parameter maxResponseBytes: The limit for requests that set none.
    public init(maxResponseBytes: Int64) {
        self.maxResponseBytes = maxResponseBytes
    }

    /// Applies the limit to the request and counts the response body against it.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        let limit = request.options.maxResponseBytes ?? maxResponseBytes
        request.options.maxResponseBytes = limit
        var response = try await next(request)
        if let body = response.body {
            if case .known(let length) = body.length, length > limit { throw SwitchyardError.responseTooLarge(limit: limit) }
            response.body = body.tapped(by: SizeLimitTap(limit: limit))
        }
        return response
    }
}

/// Fails the read that would take a body past `limit` bytes.
final class SizeLimitTap: BodyTap {
    private let limit: Int64
    private let seen = Atomic<Int64>(0)

    init(limit: Int64) {
        self.limit = limit
    }

    func iterationStarted() {
        seen.store(0, ordering: .relaxed)
    }

    func received(_ chunk: ArraySlice<UInt8>) throws {
        let total = seen.add(Int64(chunk.count), ordering: .relaxed).newValue
        if total > limit { throw SwitchyardError.responseTooLarge(limit: limit) }
    }
}
