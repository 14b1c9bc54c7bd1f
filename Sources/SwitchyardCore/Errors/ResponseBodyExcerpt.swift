/// The beginning of a failed response's body, kept on its ``SwitchyardError`` so an app can read
/// what the server said (an RFC 9457 problem document, an API's own error object).
///
/// Its content type is the error's ``SwitchyardError/response``'s `Content-Type`.
public struct ResponseBodyExcerpt: Sendable, Hashable {
    /// The largest excerpt kept by default: 64 KiB.
    public static let defaultLimit = 64 * 1024

    /// The bytes, at most the limit they were read with.
    public var bytes: [UInt8]
    /// Whether ``bytes`` is the whole body (`false`: it was cut at the limit).
    public var isComplete: Bool

    /// Creates an excerpt.
    /// - Parameters:
    ///   - bytes: The body's first bytes.
    ///   - isComplete: Whether they are the whole body.
    public init(bytes: [UInt8], isComplete: Bool) {
        self.bytes = bytes
        self.isComplete = isComplete
    }

    /// The bytes as UTF-8 text (invalid bytes become U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The first `limit` bytes as one line of text (line breaks and control characters become
    /// spaces), for an error's message.
    /// - Parameter limit: The most bytes quoted.
    /// - Returns: The line; empty for an empty body.
    public func preview(upTo limit: Int) -> String {
        let text = String(decoding: bytes.prefix(limit), as: UTF8.self)
        return String(text.map { $0.isNewline || $0.asciiValue.map { $0 < 0x20 } == true ? " " : $0 })
    }
}
