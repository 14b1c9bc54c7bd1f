public import SwitchyardCore

/// One encoded stream being decoded: encoded bytes in, decoded bytes out, a bounded piece at a time.
///
/// A ``ContentCodec`` makes one decoder per response body; the body's iterator owns it and calls it
/// from one task at a time, so a decoder need not be thread-safe (and is not `Sendable`).
///
/// ### Use an existing decoder
///
/// Decoders are not used directly: register their codec (``ContentDecoders``,
/// ``RequestOptions/contentDecoders``) and every transport that hands Switchyard the encoded bytes
/// decodes with it, with the same guarantees as gzip: bounded memory, the decoded-size limit
/// (`maxResponseBytes`) counted on decoded bytes, at most ``ContentDecoders/maxLayers`` codings,
/// and a ``SwitchyardError/Kind/protocolViolation`` for a corrupt, unfinished or over-long stream.
///
/// ### Implement a custom decoder
///
/// Wrap the library's streaming call. The driver passes the input not yet consumed and an output
/// buffer of at most 64 KiB; report what was consumed and produced, and whether the bytes consumed
/// so far end a complete stream:
///
/// ```swift
/// final class IdentityDecoder: ContentDecoder {
///     func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
///         throws(SwitchyardError) -> ContentDecodingStep
///     {
///         let count = min(input.count, output.count)
///         output.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[..<count]))
///         return ContentDecodingStep(consumed: count, produced: count, isComplete: true)
///     }
/// }
/// ```
public protocol ContentDecoder: AnyObject {
    /// Decodes the start of `input` into the start of `output`.
    ///
    /// Called with the input not yet consumed (possibly empty, to take out decoded bytes the
    /// decoder still holds). With input left and room in `output`, a call must consume or produce
    /// something. Bytes after the end of a complete stream are the decoder's to judge: accept them
    /// as the next stream where the coding allows it (gzip members, zstd frames), or throw.
    /// - Parameters:
    ///   - input: Encoded bytes not yet consumed.
    ///   - output: Room for decoded bytes.
    /// - Returns: How many bytes were consumed and produced, and whether the stream is complete.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` when the bytes are not a valid stream
    ///   (name the coding and the library's reason); ``SwitchyardError/Kind/transport`` when the
    ///   library fails for another reason (out of memory).
    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(SwitchyardError) -> ContentDecodingStep
}

/// What one call to ``ContentDecoder/decode(_:into:)`` achieved.
public struct ContentDecodingStep: Sendable, Hashable {
    /// Encoded bytes consumed from the start of the input.
    public var consumed: Int
    /// Decoded bytes written to the start of the output.
    public var produced: Int
    /// Whether the bytes consumed so far end a complete encoded stream, all of it delivered: the
    /// body may end here. A body that ends while this is `false` is truncated.
    public var isComplete: Bool

    /// Creates a step.
    /// - Parameters:
    ///   - consumed: Encoded bytes consumed.
    ///   - produced: Decoded bytes written.
    ///   - isComplete: Whether the stream is complete.
    public init(consumed: Int, produced: Int, isComplete: Bool) {
        self.consumed = consumed
        self.produced = produced
        self.isComplete = isComplete
    }
}

/// One stream being encoded: plain bytes in, encoded bytes out, for request bodies.
///
/// A ``ContentCodec`` that encodes makes one per request body iteration; it is used from one task
/// at a time. Memory should stay bounded by the library's state and the output of one call.
public protocol ContentEncoder: AnyObject {
    /// Encodes `input`; with `finish`, also ends the stream.
    /// - Parameters:
    ///   - input: The next plain bytes (may be empty).
    ///   - finish: Whether these are the last bytes.
    /// - Returns: The encoded bytes the library released (often none until enough input gathered).
    /// - Throws: ``SwitchyardError/Kind/transport`` when the library fails.
    func encode(_ input: ArraySlice<UInt8>, finish: Bool) throws(SwitchyardError) -> [UInt8]
}
