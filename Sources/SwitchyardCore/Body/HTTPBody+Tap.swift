/// Observes the chunks of a body as its reader pulls them, without reading anything itself: how
/// previews in logs, recordings and size limits see a body without consuming a one-shot stream.
///
/// ```swift
/// struct ByteCounter: BodyTap {
///     let total: Atomic<Int>
///     func received(_ chunk: ArraySlice<UInt8>) { total.add(chunk.count, ordering: .relaxed) }
/// }
/// response.body = body.tapped(by: counter)
/// ```
public protocol BodyTap: Sendable {
    /// An iteration of the body began (a replayable body may be iterated again).
    func iterationStarted()
    /// The reader is about to receive `chunk`. Throwing fails the reader's `next()` instead; a tap
    /// that suspends here holds the reader back (e.g. while it writes the chunk to a database).
    func received(_ chunk: ArraySlice<UInt8>) async throws
    /// The body ended normally. Throwing here fails the reader's last `next()`; the reader sees the
    /// end once this returns.
    func ended() async throws
    /// The body failed with `error` (the reader sees the same error, converted to a
    /// ``SwitchyardError`` once, here).
    func failed(_ error: SwitchyardError)
}

extension BodyTap {
    /// Does nothing.
    public func iterationStarted() {}
    /// Does nothing.
    public func ended() throws {}
    /// Does nothing.
    public func failed(_ error: SwitchyardError) {}
}

extension HTTPBody {
    /// This body, passing every chunk to `tap` as the reader pulls it.
    ///
    /// Nothing is read ahead or buffered here: the reader drives the original body, so back-pressure,
    /// length and replayability are unchanged, and a single-use body is still iterated only once.
    /// - Parameter tap: The observer.
    /// - Returns: A body with the same bytes, length and replayability.
    public func tapped(by tap: some BodyTap) -> HTTPBody {
        HTTPBody(TappedChunks(base: self, tap: tap), length: length, replayability: replayability)
    }
}

/// The chunks of a body, reported to a tap on the way through.
private struct TappedChunks<Tap: BodyTap>: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let base: HTTPBody
    let tap: Tap

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let tap: Tap
        var finished = false

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            let chunk: ArraySlice<UInt8>?
            do {
                chunk = try await base.next()
            } catch {
                finished = true
                let failure = SwitchyardError.wrapping(error)
                tap.failed(failure)
                throw failure
            }
            guard let chunk else {
                finished = true
                try await tap.ended()
                return nil
            }
            do {
                try await tap.received(chunk)
            } catch {
                finished = true
                throw error
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        tap.iterationStarted()
        return AsyncIterator(base: base.makeAsyncIterator(), tap: tap)
    }
}
