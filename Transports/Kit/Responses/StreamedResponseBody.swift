public import SwitchyardCore

/// Something a streamed response body reads from: pulled chunk by chunk, cancellable.
///
/// ``ResponseStream`` is one; a transport with a stream of its own can conform it too.
public protocol ResponseChunkSource: HTTPBodySource {
    /// `true` once the exchange has its outcome.
    var isFinished: Bool { get }
    /// Ends the exchange with `error` unless it already ended, and stops its I/O.
    func cancel(_ error: SwitchyardError)
}

extension ResponseStream: ResponseChunkSource {}

/// The body of a response that is still arriving, read from a ``ResponseChunkSource``.
///
/// Dropping the body before its end — the last reference to the body and to its iterator goes
/// away — cancels the exchange with ``SwitchyardError/cancelled``, so an abandoned download stops on
/// the wire instead of filling memory or disk. Hand it to an ``HTTPBody``:
///
/// ```swift
/// HTTPBody(streamingFrom: StreamedResponseBody(stream), length: .unknown)
/// ```
///
/// It is also an `AsyncSequence` of the chunks, for code that reads it directly.
public final class StreamedResponseBody<Source: ResponseChunkSource>: HTTPBodySource, AsyncSequence {
    /// A chunk of body bytes.
    public typealias Element = ArraySlice<UInt8>

    @usableFromInline let source: Source

    /// A body reading from `source`.
    @inlinable
    public init(_ source: Source) {
        self.source = source
    }

    /// The next chunk, `nil` at the end.
    /// - Throws: The exchange's failure.
    @inlinable
    public func nextChunk() async throws -> ArraySlice<UInt8>? {
        try await source.nextChunk()
    }

    /// Reads the source's chunks; every iterator shares the body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let body: StreamedResponseBody

        @inlinable init(body: StreamedResponseBody) { self.body = body }

        /// The next chunk, `nil` at the end.
        @inlinable
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            try await body.source.nextChunk()
        }
    }

    /// An iterator over the body.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: self) }

    /// Cancels the exchange when the last reader lets go of the body before its end.
    deinit {
        if !source.isFinished { source.cancel(.cancelled) }
    }
}
