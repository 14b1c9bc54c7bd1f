/// What the server knows of one upload resource of the `/resumable/{key}` routes
/// (``LoopbackServer/resumableUploads(key:)``).
public struct ResumableUploadFigures: Sendable, Hashable {
    /// The resource's id (its path is `/resumable/{key}/uploads/{id}`).
    public var id: Int
    /// The bytes stored: each accepted once, in order (the offset).
    public var storedBytes: Int
    /// Lowercase hex SHA-256 of the stored bytes.
    public var sha256: String
    /// Every body byte that arrived for the upload, including bytes of an append that a newer
    /// request ended (dropped, never stored).
    public var receivedBytes: Int
    /// Whether the upload is complete.
    public var isComplete: Bool
    /// Whether the first append is held (`hold_at`) right now.
    public var isHolding: Bool
    /// The offsets reported to offset requests (`HEAD`), in order.
    public var offsetsReported: [Int]
    /// Appends (and the creation) read to their end.
    public var completedAppends: Int
    /// Whether the client deleted the upload.
    public var isDeleted: Bool

    init(_ resource: ResumableUploads.Resource) {
        id = resource.id
        storedBytes = resource.bytes.count
        sha256 = BodyDigest.hexDigest(of: resource.bytes)
        receivedBytes = resource.receivedBytes
        isComplete = resource.isComplete
        isHolding = resource.isHolding
        offsetsReported = resource.offsetsReported
        completedAppends = resource.appendRequests
        isDeleted = resource.isDeleted
    }
}
