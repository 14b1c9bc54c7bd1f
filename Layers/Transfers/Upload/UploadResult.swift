public import HTTPTypes

/// Where an ``Upload`` is in its life.
public typealias UploadState = TransferState<UploadResult>

/// A completed upload: the server's answer and how the bytes got there.
public struct UploadResult: Sendable {
    /// The head of the server's final answer (to the request that carried the last byte).
    public var head: HTTPResponse
    /// The body of the final answer.
    public var body: [UInt8]
    /// The bytes uploaded (the body's length).
    public var byteCount: Int64
    /// The upload resource the server created (its `Location`), or `nil` for a plain upload.
    public var uploadResource: String?
    /// The offsets the server reported each time the upload continued (after a pause or an
    /// interruption), in order; empty when it went in one exchange.
    public var resumedFrom: [Int64]
    /// How often a plain upload (a server without resumption) started again from zero.
    public var restarts: Int

    /// The final answer's body decoded as UTF-8 (invalid bytes become U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }
}
