import NIOCore
import NIOHTTP1

/// One request as received by a connection: its head, parsed target and (route-dependent) body.
///
/// The body is only kept where a route needs it: `/echo/body` and `/gunzip` buffer it (up to
/// ``maxBufferedBody``), `/echo` hashes it on the fly, every other route just counts bytes.
struct IncomingRequest {
    /// Largest body `/echo/body` will buffer; larger requests get `413` and a close.
    static let maxBufferedBody = 64 * 1024 * 1024

    let head: HTTPRequestHead
    let target: RequestTarget
    /// Total body bytes received.
    private(set) var bodyLength = 0
    /// The buffered body (only for `/echo/body` and `/gunzip`).
    private(set) var body: ByteBuffer?
    /// Running SHA-256 of the body (only for `/echo`).
    private(set) var hasher: BodyDigest?
    /// Set when a buffered body exceeded ``maxBufferedBody``.
    private(set) var isTooLarge = false
    /// The streaming parser of a `/upload/multipart` body (`nil` elsewhere, or without a boundary).
    private(set) var multipart: MultipartParser?
    /// Where a `/resumable/…` body goes as it arrives (``ResumableUploadRoute``); `nil` elsewhere.
    var resumableIntake: ResumableUploadRoute.Intake?
    /// The store a `/resumable/…` append writes to.
    var resumableUploads: ResumableUploads?

    init(head: HTTPRequestHead, target: RequestTarget) {
        self.head = head
        self.target = target
        switch target.path {
        case "/echo": hasher = BodyDigest()
        case let path where path.hasPrefix("/soak/"): hasher = BodyDigest()
        case "/echo/body", "/gunzip": body = ByteBuffer()
        case "/upload/multipart": multipart = MultipartParser(contentType: head.headers.first(name: "Content-Type"))
        case let path where path.hasPrefix("/upload/sink/") || path.hasPrefix("/resumable/"): hasher = BodyDigest()
        default: break
        }
    }

    /// Whether the method is `HEAD` (responses then carry headers only).
    var isHead: Bool { head.method == .HEAD }

    /// Accounts for (and, if needed, keeps or hashes) one body part.
    /// - Returns: What the connection does next (a resumable upload may hold or close it).
    @discardableResult
    mutating func append(_ part: ByteBuffer) -> ResumableUploads.BodyReaction {
        defer { bodyLength += part.readableBytes }
        if case .append(let id, let generation, _, _) = resumableIntake, let resumableUploads {
            return part.withUnsafeReadableBytes { resumableUploads.append($0, id: id, generation: generation) }
        }
        appendKept(part)
        return .proceed
    }

    private mutating func appendKept(_ part: ByteBuffer) {
        let bodyLength = bodyLength + part.readableBytes
        if hasher != nil {
            part.withUnsafeReadableBytes { hasher!.update($0) }
        }
        if multipart != nil {
            part.withUnsafeReadableBytes { multipart!.feed($0) }
        }
        if body != nil, !isTooLarge {
            if bodyLength > Self.maxBufferedBody {
                isTooLarge = true
                body = ByteBuffer()
            } else if body!.readableBytes == 0 {
                body = part
            } else {
                body!.writeImmutableBuffer(part)
            }
        }
    }

    /// Hex SHA-256 of the body (empty-body digest if it was not hashed).
    func bodyDigest() -> String {
        BodyDigest.hex((hasher ?? BodyDigest()).finalize())
    }
}
