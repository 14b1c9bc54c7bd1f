import NIOConcurrencyHelpers
import Synchronization

/// The upload resources of the `/resumable/{key}` routes ("Resumable Uploads for HTTP",
/// draft-ietf-httpbis-resumable-upload-10, interop version 8), in memory and bounded: at most
/// ``maxUploadBytes`` per upload and ``maxUploads`` uploads (the oldest are forgotten first).
///
/// Concurrency follows the draft's recommended approach: a request for an upload resource (offset,
/// append, delete) ends any append still in progress for it. Each append holds a *generation*; a
/// new request bumps it, and the old append's further bytes are dropped (its connection closed), so
/// the offset the server reports is the offset it accepts next.
final class ResumableUploads: Sendable {
    /// The most bytes one upload may hold.
    static let maxUploadBytes = 64 << 20
    /// The most uploads kept.
    static let maxUploads = 64

    /// What the connection does after a body part.
    enum BodyReaction: Equatable {
        case proceed
        /// Stop reading the connection until the test (or a newer request) lets `key` through.
        case holdReading(key: String)
        /// Close the connection (a stale append, or the `cut_at` fault).
        case close
    }

    /// One upload resource.
    struct Resource {
        let key: String
        let id: Int
        var bytes: [UInt8] = []
        var length: Int?
        var isComplete = false
        var generation = 0
        /// Stop reading the first append once this many bytes are stored (`hold_at`).
        var holdAt: Int?
        /// Close the first append's connection once this many bytes are stored (`cut_at`).
        var cutAt: Int?
        var isHolding = false
        /// Every body byte that arrived for the upload, dropped ones included.
        var receivedBytes = 0
        var offsetsReported: [Int] = []
        var appendRequests = 0
        var isDeleted = false
        var failure: String?

        var holdKey: String { "resumable-\(id)" }
    }

    private let resources = NIOLockedValueBox<[Int: Resource]>([:])
    private let nextID = Atomic<Int>(1)

    /// Creates an upload resource for `key` and returns its id.
    func create(key: String, length: Int?, holdAt: Int?, cutAt: Int?) -> Int {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        resources.withLockedValue { resources in
            if resources.count >= Self.maxUploads, let oldest = resources.keys.min() { resources[oldest] = nil }
            resources[id] = Resource(key: key, id: id, length: length, holdAt: holdAt, cutAt: cutAt)
        }
        return id
    }

    /// Starts a request on upload `id` (offset, append or delete): ends any append in progress.
    /// - Returns: The resource as it is now, the new generation (for an append), and the hold key to
    ///   release (an append held by `hold_at`), or `nil` when the upload is unknown.
    func begin(id: Int) -> (resource: Resource, generation: Int, releasing: String?)? {
        resources.withLockedValue { resources in
            guard var resource = resources[id], !resource.isDeleted else { return nil }
            resource.generation += 1
            let releasing = resource.isHolding ? resource.holdKey : nil
            resource.isHolding = false
            resources[id] = resource
            return (resource, resource.generation, releasing)
        }
    }

    /// Appends `part` to upload `id` if `generation` is still current.
    func append(_ part: UnsafeRawBufferPointer, id: Int, generation: Int) -> BodyReaction {
        resources.withLockedValue { resources in
            guard var resource = resources[id] else { return .close }
            resource.receivedBytes += part.count
            defer { resources[id] = resource }
            guard resource.generation == generation, !resource.isDeleted, resource.failure == nil else { return .close }
            let limit = min(resource.length ?? Self.maxUploadBytes, Self.maxUploadBytes)
            guard resource.bytes.count + part.count <= limit else {
                resource.failure = "the upload exceeds its length (\(limit) bytes)"
                return .close
            }
            resource.bytes.append(contentsOf: part)
            if let holdAt = resource.holdAt, resource.bytes.count >= holdAt {
                resource.holdAt = nil
                resource.isHolding = true
                return .holdReading(key: resource.holdKey)
            }
            if let cutAt = resource.cutAt, resource.bytes.count >= cutAt {
                resource.cutAt = nil
                return .close
            }
            return .proceed
        }
    }

    /// Ends an append of upload `id` whose content was read completely; marks the upload complete
    /// when `completes` and the length (if declared) is reached.
    /// - Returns: The resource afterwards, or `nil` when unknown or superseded by a newer request.
    func finishAppend(id: Int, generation: Int, completes: Bool) -> Resource? {
        resources.withLockedValue { resources in
            guard var resource = resources[id], resource.generation == generation, !resource.isDeleted else { return nil }
            resource.appendRequests += 1
            if completes, resource.failure == nil, resource.length.map({ $0 == resource.bytes.count }) ?? true {
                resource.isComplete = true
                resource.length = resource.bytes.count
            }
            resources[id] = resource
            return resource
        }
    }

    /// Records that the offset of upload `id` was reported.
    func noteOffsetReported(id: Int, offset: Int) {
        resources.withLockedValue { $0[id]?.offsetsReported.append(offset) }
    }

    /// Deletes upload `id`.
    func delete(id: Int) {
        resources.withLockedValue { resources in
            resources[id]?.isDeleted = true
            resources[id]?.bytes = []
        }
    }

    /// The uploads of `key`, oldest first.
    func resources(key: String) -> [Resource] {
        resources.withLockedValue { $0.values.filter { $0.key == key }.sorted { $0.id < $1.id } }
    }
}
