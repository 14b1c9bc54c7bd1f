public import Foundation
import HTTPTypes
public import SwitchyardCore

/// Signs each attempt of a request with HMAC-SHA256 over its method, path, timestamp and body
/// hash (see ``RequestSigner``), adding the timestamp, body-hash and signature headers.
///
/// It belongs at the *attempt* position, so every retry carries a fresh timestamp and the
/// signature covers the request exactly as it goes on the wire. Use it through
/// `Plugin.signing(name:scope:signer:placement:now:)`.
///
/// A buffered body is hashed as it is. A streamed body has to be read before it can be hashed:
/// up to ``maxStreamedBodyBytes`` are collected into memory (the request then carries them as a
/// replayable body); a longer stream fails the call with `SwitchyardError.Kind.invalidRequest`
/// instead of sending an unsigned or truncated body.
public struct SigningInterceptor: Interceptor {
    /// Streamed bodies up to this size are collected and signed (8 MiB).
    public static let defaultMaxStreamedBodyBytes: Int64 = 8 << 20

    /// Computes the signatures.
    public let signer: RequestSigner
    /// The largest streamed body that is collected for signing.
    public let maxStreamedBodyBytes: Int64
    private let now: @Sendable () -> Date

    /// Creates a signing interceptor.
    /// - Parameters:
    ///   - signer: The key and algorithm.
    ///   - maxStreamedBodyBytes: The largest streamed body collected for signing.
    ///   - now: The clock for timestamps (injectable for tests).
    public init(
        signer: RequestSigner,
        maxStreamedBodyBytes: Int64 = defaultMaxStreamedBodyBytes,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signer = signer
        self.maxStreamedBodyBytes = maxStreamedBodyBytes
        self.now = now
    }

    /// Adds the signing headers and passes the request on.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        let bodyBytes: ArraySlice<UInt8>
        if let body = request.body {
            if let buffered = body.bufferedBytes {
                bodyBytes = buffered
            } else {
                bodyBytes = try await collect(body)
                request.body = HTTPBody(bodyBytes)
            }
        } else {
            bodyBytes = []
        }
        let timestamp = Int64(now().timeIntervalSince1970)
        let bodyHash = RequestSigner.bodyHash(bodyBytes)
        let stringToSign = RequestSigner.stringToSign(
            method: request.head.method.rawValue, pathAndQuery: request.head.path ?? "/",
            timestamp: timestamp, bodyHash: bodyHash)
        request.head.headerFields[RequestSigner.timestampHeader] = String(timestamp)
        request.head.headerFields[RequestSigner.bodyHashHeader] = bodyHash
        request.head.headerFields[RequestSigner.signatureHeader] =
            signer.signatureHeaderValue(signer.signature(of: stringToSign))
        return try await next(request)
    }

    private func collect(_ body: HTTPBody) async throws -> ArraySlice<UInt8> {
        do {
            return ArraySlice(try await body.collect(upTo: maxStreamedBodyBytes))
        } catch let error as SwitchyardError where error.kind == .responseTooLarge {
            throw SwitchyardError.invalidRequest(
                "The request body is a stream longer than \(maxStreamedBodyBytes)"
                    + " bytes, too long to collect for signing; send it as a buffered body or raise"
                    + " maxStreamedBodyBytes.")
        }
    }
}
