import AsyncHTTPClient
import NIOCore
import SwitchyardCore

/// The body of a response AsyncHTTPClient is still receiving, as Switchyard chunks.
///
/// AsyncHTTPClient's body is back-pressured: it reads from the socket only when this sequence
/// asks for the next chunk, so memory stays bounded however large the body is. On top of that,
/// this sequence enforces what AsyncHTTPClient does not once the head has arrived:
/// - the exchange's deadline, across the whole body;
/// - ``RequestOptions/maxResponseBytes``, counted on the (decoded) bytes delivered;
/// - the final ``TransferTimings/total`` timing.
///
/// Any failure, a cancelled reading task, or dropping the body before its end releases
/// AsyncHTTPClient's iterator, which makes AsyncHTTPClient cancel the request and close its connection.
struct AsyncHTTPClientResponseBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let body: HTTPClientResponse.Body
    let context: ExchangeContext
    let limit: Int64?
    /// The identity-encoded length the head declares, if any.
    let declaredLength: Int64?
    let host: String
    /// Keeps the transport — and so an owned `HTTPClient` — alive while the body streams.
    let keepAlive: any Sendable

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: body.makeAsyncIterator(), body: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        /// AsyncHTTPClient's iterator, read in place while no read races the deadline.
        private var base: HTTPClientResponse.Body.AsyncIterator?
        /// The same iterator, moved into a box by the first read that races the deadline (a child
        /// task advances it then); a response without a deadline never allocates one.
        private var cursor: BodyCursor?
        private let body: AsyncHTTPClientResponseBody
        private var received: Int64 = 0

        fileprivate init(base: HTTPClientResponse.Body.AsyncIterator, body: AsyncHTTPClientResponseBody) {
            self.base = base
            self.body = body
        }

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard base != nil || cursor != nil else { return nil }  // finished
            do {
                while let buffer = try await nextBuffer() {
                    guard buffer.readableBytes > 0 else { continue }
                    received += Int64(buffer.readableBytes)
                    if let limit = body.limit, received > limit { throw SwitchyardError.responseTooLarge(limit: limit) }
                    return ArraySlice(buffer.readableBytesView)
                }
                finish()
                return nil
            } catch {
                finish()
                throw AsyncHTTPClientErrorMapping.error(for: error, phase: .readingBody, host: body.host)
            }
        }

        /// AsyncHTTPClient's next buffer, raced against the deadline when one applies.
        private mutating func nextBuffer() async throws -> ByteBuffer? {
            if let deadline = deadlineForNextRead {
                if cursor == nil, let base {
                    cursor = BodyCursor(base)
                    self.base = nil
                }
                return try await cursor?.next(before: deadline)
            }
            if let cursor { return try await cursor.next(before: nil) }
            return try await base?.next()
        }

        /// The deadline to race the next read against.
        ///
        /// Once every declared byte has arrived, the parser has already seen the end of the message
        /// (it ends with the last byte), so the final read returns at once and needs no timer: this
        /// spares small responses a second deadline race.
        private var deadlineForNextRead: ContinuousClock.Instant? {
            if let declared = body.declaredLength, received >= declared { return nil }
            return body.context.deadline
        }

        /// Records the total time and releases AsyncHTTPClient's iterator (closing the connection if
        /// the body did not end cleanly).
        private mutating func finish() {
            base = nil
            cursor = nil
            let context = body.context
            let now = ContinuousClock.now
            let elapsed = context.attemptStartedAt.duration(to: now)
            context.recordTimings { $0.total = elapsed }
        }
    }
}

/// Owns AsyncHTTPClient's body iterator so a child task can advance it while a deadline timer runs
/// (responses with a deadline only).
///
/// `@unchecked Sendable` is safe because at most one `next` call is ever in flight: the only caller,
/// ``AsyncHTTPClientResponseBody/AsyncIterator``, is not `Sendable` and awaits each call — including
/// the task group that races it against the deadline — before it can make the next one.
private final class BodyCursor: @unchecked Sendable {
    private var base: HTTPClientResponse.Body.AsyncIterator

    init(_ base: HTTPClientResponse.Body.AsyncIterator) {
        self.base = base
    }

    /// The next buffer, or `nil` at the end; throws ``SwitchyardError/Kind/timeout`` at `deadline`.
    func next(before deadline: ContinuousClock.Instant?) async throws -> ByteBuffer? {
        guard let deadline else { return try await base.next() }
        return try await withDeadline(deadline, timeoutError: Self.deadlinePassed) { try await self.base.next() }
    }

    private static var deadlinePassed: SwitchyardError {
        .timedOut("The response body was still arriving when the deadline passed.")
    }
}
