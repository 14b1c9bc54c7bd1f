/// An object a single-use streamed body reads its chunks from: typically a transport's reader of a
/// response that is still arriving.
///
/// Hand one to ``HTTPBody/init(streamingFrom:length:)``. The body is then that one object beside the
/// source, where a body made from an `AsyncSequence` also allocates a closure and an iterator box for
/// its iteration.
///
/// ```swift
/// final class ThreeTicks: HTTPBodySource {
///     private let left = Atomic<Int>(3)
///
///     func nextChunk() async throws -> ArraySlice<UInt8>? {  // `nil` ends the body
///         left.subtract(1, ordering: .relaxed).newValue >= 0 ? ArraySlice("tick\n".utf8) : nil
///     }
/// }
/// let body = HTTPBody(streamingFrom: ThreeTicks(), length: .known(15))
/// ```
///
/// ### What the body promises its source
///
/// Only the body's one iteration calls ``nextChunk()``, and it awaits each call before making the
/// next: calls never overlap, so a source needs no lock for the state it reads with. A second
/// iteration of the body is refused without reaching the source. The source lives as long as the
/// body or its iterator: when both are gone before the end, the source's `deinit` is where it stops
/// its I/O.
public protocol HTTPBodySource: AnyObject, Sendable {
    /// The next chunk of the body, or `nil` at its end.
    /// - Returns: The next chunk; an empty chunk is passed on as it is.
    /// - Throws: Why the body cannot continue.
    func nextChunk() async throws -> ArraySlice<UInt8>?
}
