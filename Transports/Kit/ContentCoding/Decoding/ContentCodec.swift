public import SwitchyardCore

/// A content coding (RFC 9110 §8.4.1) Switchyard can decode, and perhaps encode: its name and a
/// factory of stream decoders.
///
/// gzip and deflate are built in (``GzipCodec``, ``DeflateCodec``); other codings come from plugin
/// modules (`SwitchyardCompression`: `br` and `zstd`), so an app that does not use them does not
/// link their libraries. A codec is enabled for a request through ``RequestOptions/contentDecoders``.
///
/// ### Use an existing codec
///
/// Add it to the codecs a request accepts, usually with a plugin for a scope; every transport then
/// advertises it in `Accept-Encoding` and decodes it the same way.
///
/// ### Implement a custom codec
///
/// Give the coding's token and make a ``ContentDecoder`` per body; to offer it for request bodies
/// too, implement ``makeEncoder(level:)``:
///
/// ```swift
/// struct IdentityCodec: ContentCodec {
///     var name: String { "x-identity" }
///     func makeDecoder() throws(SwitchyardError) -> any ContentDecoder { IdentityDecoder() }
/// }
/// ```
public protocol ContentCodec: Sendable {
    /// The coding's token in `Content-Encoding` and `Accept-Encoding`, lower-case (e.g. `br`).
    var name: String { get }
    /// Other tokens that mean the same coding (e.g. `x-gzip`); none by default.
    var aliases: [String] { get }
    /// A decoder for one body.
    /// - Returns: A fresh decoder.
    /// - Throws: ``SwitchyardError/Kind/transport`` when the library cannot start one (out of memory).
    func makeDecoder() throws(SwitchyardError) -> any ContentDecoder
    /// An encoder for one request body.
    /// - Parameter level: The compression level, or `nil` for the codec's default; clamped to the
    ///   codec's range.
    /// - Returns: A fresh encoder.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when the codec does not encode (the
    ///   default); ``SwitchyardError/Kind/transport`` when the library cannot start.
    func makeEncoder(level: Int?) throws(SwitchyardError) -> any ContentEncoder
}

extension ContentCodec {
    /// No aliases.
    public var aliases: [String] { [] }

    /// Refuses: the codec only decodes.
    /// - Parameter level: Ignored.
    /// - Returns: Never.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest``.
    public func makeEncoder(level: Int?) throws(SwitchyardError) -> any ContentEncoder {
        throw .invalidRequest("The \(name) content coding is only decoded here; it cannot compress a request body.")
    }
}
