/// Names one stored record: the partition it belongs to (the signed-in identity, or `""` for none)
/// and the resource (`GET` plus the absolute URL, and, for a variant chosen by `Vary`, the request
/// header values it was stored for).
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The partition: a store keeps partitions apart and clears one at a time.
    public var partition: String
    /// The resource within the partition.
    public var resource: String

    /// Creates a key.
    /// - Parameters:
    ///   - partition: The partition (`""` for the shared one).
    ///   - resource: The resource within it.
    public init(partition: String, resource: String) {
        self.partition = partition
        self.resource = resource
    }

    /// The key of the variant of this resource stored for these request header values.
    /// - Parameter values: `name: value` of each header the response's `Vary` names, in `Vary` order.
    /// - Returns: The variant's key.
    func variant(_ values: [String]) -> CacheKey {
        CacheKey(partition: partition, resource: resource + "\n" + values.joined(separator: "\n"))
    }

    /// `partition|resource`.
    public var description: String { "\(partition)|\(resource)" }
}
