import AsyncHTTPClient
import NIOCore
import SwitchyardCore

/// Reads the body of a response AsyncHTTPClient is still receiving, as Switchyard chunks: the
/// ``HTTPBodySource`` of the response's ``HTTPBody``, so the body is this one object around
/// AsyncHTTPClient's iterator.
///
/// AsyncHTTPClient's body is back-pressured: it reads from the socket only when the body asks for
/// the next chunk, so memory stays bounded however large the body is. On top of that, the reader
/// enforces what AsyncHTTPClient does not once the head has arrived:
/// - the exchange's deadline, across the whole body;
/// - ``RequestOptions/maxResponseBytes``, counted on the (decoded) bytes delivered;
/// - the final ``TransferTimings/total`` timing.
///
/// Any failure, a cancelled reading task, or dropping the body before its end releases
/// AsyncHTTPClient's iterator, which makes AsyncHTTPClient cancel the request and close its connection.
///
/// `@unchecked Sendable` is safe because the mutable state (`base`, `received`) is touched by one
/// read at a time: ``HTTPBody`` calls ``nextChunk()`` from its one iteration only, awaiting each call
/// before the next (``HTTPBodySource``), and the transport reads a body-less response's end the same
/// way before it hands the reader to anyone. A read that races the deadline advances the iterator in
/// a child task, which ``withDeadline(_:timeoutError:_:)`` awaits before it returns.
final class AsyncHTTPClientBodyReader: HTTPBodySource, @unchecked Sendable {
    /// AsyncHTTPClient's iterator; `nil` once the body ended or failed.
    private var base: HTTPClientResponse.Body.AsyncIterator?
    /// The body `base` iterates, released after it: a body sequence that outlives its stream's end
    /// is torn down on SwiftNIO's short path (released first, it takes the longer one on every response).
    private var sequence: HTTPClientResponse.Body?
    private var received: Int64 = 0
    private let context: ExchangeContext
    private let limit: Int64?
    /// The identity-encoded length the head declares, if any.
    private let declaredLength: Int64?
    private let host: String
    /// Keeps the transport — and so an owned `HTTPClient` — alive while the body streams.
    private let keepAlive: AsyncHTTPClientTransport

    init(
        _ body: HTTPClientResponse.Body, context: ExchangeContext, limit: Int64?, declaredLength: Int64?, host: String,
        keepAlive: AsyncHTTPClientTransport
    ) {
        self.base = body.makeAsyncIterator()
        self.sequence = body
        self.context = context
        self.limit = limit
        self.declaredLength = declaredLength
        self.host = host
        self.keepAlive = keepAlive
    }

    /// The next non-empty chunk, `nil` at the end.
    /// - Throws: ``SwitchyardError/Kind/responseTooLarge`` past the limit, ``SwitchyardError/Kind/timeout``
    ///   at the deadline, or AsyncHTTPClient's failure, mapped.
    func nextChunk() async throws -> ArraySlice<UInt8>? {
        guard base != nil else { return nil }  // finished
        do {
            while let buffer = try await nextBuffer() {
                guard buffer.readableBytes > 0 else { continue }
                received += Int64(buffer.readableBytes)
                if let limit, received > limit { throw SwitchyardError.responseTooLarge(limit: limit) }
                return ArraySlice(buffer.readableBytesView)
            }
            finish()
            return nil
        } catch {
            finish()
            throw AsyncHTTPClientErrorMapping.error(for: error, phase: .readingBody, host: host)
        }
    }

    /// AsyncHTTPClient's next buffer, raced against the deadline when one applies.
    private func nextBuffer() async throws -> ByteBuffer? {
        guard let deadline = deadlineForNextRead else { return try await base?.next() }
        return try await withDeadline(deadline, timeoutError: Self.deadlinePassed) { try await self.base?.next() }
    }

    /// The deadline to race the next read against.
    ///
    /// Once every declared byte has arrived, the parser has already seen the end of the message
    /// (it ends with the last byte), so the final read returns at once and needs no timer: this
    /// spares small responses a second deadline race.
    private var deadlineForNextRead: ContinuousClock.Instant? {
        if let declaredLength, received >= declaredLength { return nil }
        return context.deadline
    }

    /// Records the total time and releases AsyncHTTPClient's iterator (closing the connection if
    /// the body did not end cleanly).
    private func finish() {
        base = nil
        sequence = nil
        let now = ContinuousClock.now
        let elapsed = context.attemptStartedAt.duration(to: now)
        context.recordTimings { $0.total = elapsed }
    }

    private static var deadlinePassed: SwitchyardError {
        .timedOut("The response body was still arriving when the deadline passed.")
    }
}
