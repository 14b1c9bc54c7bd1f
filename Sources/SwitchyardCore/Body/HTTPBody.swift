import Synchronization

/// A request or response body: bytes in memory, or an asynchronous sequence of byte chunks.
///
/// A body knows its ``Length`` when it can and declares its ``Replayability``: whether it can be
/// iterated — and so sent — more than once. Links that send a request again replay only replayable bodies;
/// a single-use stream refuses a second iteration with ``SwitchyardError/Kind/invalidRequest``
/// instead of silently sending nothing.
///
/// Streams are pulled: the consumer asks for the next chunk, so a slow reader slows the producer
/// (back-pressure) and memory stays bounded.
///
/// ```swift
/// let small = HTTPBody("hello")                                   // replayable, known length
/// let file = HTTPBody(chunks, length: .known(size), replayability: .replayable)
/// for try await chunk in response.body! { write(chunk) }
/// ```
public final class HTTPBody: Sendable {
    /// The body's size, when it is known before reading it.
    public enum Length: Sendable, Hashable {
        /// Exactly this many bytes.
        case known(Int64)
        /// The size is discovered while reading.
        case unknown
    }

    /// Whether the body can be iterated more than once.
    public enum Replayability: Sendable, Hashable {
        /// Every iteration yields the same bytes: safe to send again.
        case replayable
        /// Only one iteration is possible (e.g. a network stream); a second one throws.
        case singleUse
    }

    /// The body's size, if known in advance.
    public let length: Length
    /// Whether the body can be sent again.
    public let replayability: Replayability

    enum Storage: Sendable {
        case bytes(ArraySlice<UInt8>)
        case chunks(@Sendable () -> ChunkProducer)
        case source(any HTTPBodySource)
    }

    /// Pulls the next chunk of one iteration of a streamed body; `nil` ends the body.
    public typealias ChunkProducer = () async throws -> ArraySlice<UInt8>?

    let storage: Storage
    private let iterationStarted = Atomic<Bool>(false)

    /// Creates a replayable body holding `bytes`.
    /// - Parameter bytes: The body's bytes.
    public init(_ bytes: some Collection<UInt8>) {
        let slice = ArraySlice(bytes)
        self.storage = .bytes(slice)
        self.length = .known(Int64(slice.count))
        self.replayability = .replayable
    }

    /// Creates a replayable body holding the UTF-8 bytes of `string`.
    /// - Parameter string: The body's text.
    public convenience init(_ string: String) {
        self.init(Array(string.utf8))
    }

    /// Creates a body that streams the chunks of an asynchronous sequence.
    /// - Parameters:
    ///   - sequence: The chunks, pulled one at a time as the transport sends them.
    ///   - length: The total size, if known (lets the transport send `Content-Length`).
    ///   - replayability: Declare `.replayable` only if iterating `sequence` again yields the same bytes.
    ///
    /// Inlinable, so that the caller's module specialises the iteration for its own sequence type
    /// (a transport's body is pulled through here for every chunk).
    @inlinable
    public convenience init<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks,
        length: Length = .unknown,
        replayability: Replayability = .singleUse
    ) where Chunks.Element == ArraySlice<UInt8> {
        self.init(
            producing: {
                let box = IteratorBox(sequence.makeAsyncIterator())
                return { try await box.next() }
            }, length: length, replayability: replayability)
    }

    /// Creates a streamed body whose iterations each pull from a new producer: the general form of a
    /// streamed body (a file, a generator, a shared buffer). A producer returns the next chunk, or
    /// `nil` at the end, and may throw to fail the body.
    /// - Parameters:
    ///   - makeProducer: Makes the producer of one iteration; a replayable body calls it again for
    ///     each iteration.
    ///   - length: The total size, if known (lets the transport send `Content-Length`).
    ///   - replayability: Declare `.replayable` only if each new producer yields the same bytes.
    public init(producing makeProducer: @escaping @Sendable () -> ChunkProducer, length: Length, replayability: Replayability) {
        self.storage = .chunks(makeProducer)
        self.length = length
        self.replayability = replayability
    }

    /// Creates a single-use body that streams from `source`: the cheapest form of a streamed body,
    /// for a transport's reader of a response that is still arriving (see ``HTTPBodySource``).
    /// - Parameters:
    ///   - source: Where the chunks come from; only this body's one iteration reads it.
    ///   - length: The total size, if known.
    public init(streamingFrom source: some HTTPBodySource, length: Length) {
        self.storage = .source(source)
        self.length = length
        self.replayability = .singleUse
    }

    /// Creates a body from an asynchronous sequence of byte arrays.
    /// - Parameters:
    ///   - sequence: The chunks.
    ///   - length: The total size, if known.
    ///   - replayability: Whether iterating again yields the same bytes.
    public convenience init<Chunks: AsyncSequence & Sendable>(
        _ sequence: Chunks,
        length: Length = .unknown,
        replayability: Replayability = .singleUse
    ) where Chunks.Element == [UInt8] {
        self.init(sequence.map { ArraySlice($0) }, length: length, replayability: replayability)
    }

    /// The bytes of a body created from memory, or `nil` for a streamed body.
    ///
    /// Transports use this to send an in-memory body without iterating it.
    public var bufferedBytes: ArraySlice<UInt8>? {
        if case .bytes(let bytes) = storage { return bytes }
        return nil
    }

    /// `true` for a single-use body whose one iteration has begun: sending it again would put a
    /// request head on the wire without its body. The chain refuses such a request before the
    /// transport sees it.
    public var isSpent: Bool {
        replayability == .singleUse && iterationStarted.load(ordering: .relaxed)
    }

    /// The error for sending a spent single-use body again.
    static var spentRefusal: SwitchyardError {
        .invalidRequest(
            "This body is a single-use stream and was already sent once;"
                + " it cannot be sent again (another attempt or location). Use a replayable body to allow that.")
    }

    /// Marks the start of an iteration; returns `false` if a single-use body was already iterated.
    func beginIteration() -> Bool {
        let alreadyStarted = iterationStarted.exchange(true, ordering: .relaxed)
        return replayability == .replayable || !alreadyStarted
    }
}

// MARK: - AsyncSequence

extension HTTPBody: AsyncSequence {
    /// One chunk of the body.
    public typealias Element = ArraySlice<UInt8>
    /// Errors come from the underlying stream or transport.
    public typealias Failure = any Error

    /// Iterates the chunks of a body.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// One chunk of the body.
        public typealias Element = ArraySlice<UInt8>
        /// What the next read takes from: one small value, since the iterator is kept in the
        /// async frame of every read.
        private enum Position {
            /// The bytes of an in-memory body, not read yet.
            case bytes(ArraySlice<UInt8>)
            case producer(ChunkProducer)
            case source(any HTTPBodySource)
            /// The body was single-use and already read (a flag, not the error).
            case refused
            case ended
        }

        private var position: Position

        init(_ body: HTTPBody) {
            guard body.beginIteration() else {
                position = .refused
                return
            }
            switch body.storage {
            case .bytes(let bytes): position = .bytes(bytes)
            case .chunks(let makeProducer): position = .producer(makeProducer())
            case .source(let source): position = .source(source)
            }
        }

        /// Returns the next chunk, or `nil` at the end of the body.
        /// - Returns: The next chunk.
        /// - Throws: The stream's error, or ``SwitchyardError/Kind/invalidRequest`` for a replayed single-use body.
        public mutating func next() async throws -> ArraySlice<UInt8>? {
            switch position {
            case .source(let source):
                if let chunk = try await source.nextChunk() { return chunk }
            case .bytes(let bytes):
                position = .ended
                return bytes.isEmpty ? nil : bytes
            case .producer(let producer):
                if let chunk = try await producer() { return chunk }
            case .refused:
                throw HTTPBody.spentRefusal
            case .ended:
                return nil
            }
            position = .ended
            return nil
        }
    }

    /// Starts an iteration over the chunks.
    /// - Returns: An iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(self) }
}

/// Holds a generic iterator so a non-generic closure can advance it.
@usableFromInline
final class IteratorBox<Base: AsyncIteratorProtocol> where Base.Element == ArraySlice<UInt8> {
    @usableFromInline var base: Base
    @inlinable init(_ base: Base) { self.base = base }
    @inlinable func next() async throws -> ArraySlice<UInt8>? { try await base.next() }
}
