public import SwitchyardCore

/// Something a streamed response body reads from: pulled chunk by chunk, cancellable.
///
/// ``ResponseStream`` is one; a transport with a stream of its own can conform it too.
public protocol ResponseChunkSource: AnyObject, Sendable {
    /// The next chunk, `nil` at the end.
    /// - Throws: The exchange's failure.
    func nextChunk() async throws -> ArraySlice<UInt8>?
    /// `true` once the exchange has its outcome.
    var isFinished: Bool { get }
    /// Ends the exchange with `error` unless it already ended, and stops its I/O.
    func cancel(_ error: SwitchyardError)
}

extension ResponseStream: ResponseChunkSource {}

/// The body of a response that is still arriving, read from a ``ResponseChunkSource``.
///
/// Dropping the body before its end — the last reference to the sequence and to its iterators goes
/// away — cancels the exchange with ``SwitchyardError/cancelled``, so an abandoned download stops on
/// the wire instead of filling memory or disk. Wrap it in an ``HTTPBody``:
///
/// ```swift
/// HTTPBody(StreamedResponseBody(stream), length: .unknown, replayability: .singleUse)
/// ```
public struct StreamedResponseBody<Source: ResponseChunkSource>: AsyncSequence, Sendable {
    /// A chunk of body bytes.
    public typealias Element = ArraySlice<UInt8>

    @usableFromInline let owner: Owner

    /// A body reading from `source`.
    @inlinable
    public init(_ source: Source) {
        self.owner = Owner(source: source)
    }

    /// Reads the source's chunks; every iterator shares the sequence's owner.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let owner: Owner

        @inlinable init(owner: Owner) { self.owner = owner }

        /// The next chunk, `nil` at the end.
        @inlinable
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            try await owner.source.nextChunk()
        }
    }

    /// An iterator over the body.
    @inlinable
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: owner) }

    /// Cancels the exchange when the last reader lets go of the body.
    @usableFromInline
    final class Owner: Sendable {
        @usableFromInline let source: Source
        @inlinable init(source: Source) { self.source = source }
        deinit {
            if !source.isFinished { source.cancel(.cancelled) }
        }
    }
}
