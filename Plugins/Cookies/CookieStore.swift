import Synchronization

/// Where a ``CookieJar`` keeps its cookies, by partition.
///
/// A partition is a named set of cookies (a signed-in user's, `""` for the shared one); clearing one
/// leaves the others. ``MemoryCookieStore`` keeps them in the process; ``DiskCookieStore`` in a
/// file several processes share. Every change is applied to the latest stored state, so two
/// writers never lose each other's cookies.
public protocol CookieStore: Sendable {
    /// The cookies of `partition`, expired ones included (the jar filters them).
    /// - Parameter partition: The partition.
    /// - Returns: Its cookies, in creation order.
    func cookies(in partition: String) throws -> [Cookie]

    /// Applies `change` to the cookies of `partition` as one atomic update.
    /// - Parameters:
    ///   - partition: The partition.
    ///   - change: Edits the partition's cookies in place.
    func update(_ partition: String, _ change: (inout [Cookie]) -> Void) throws

    /// Removes every cookie of `partition` (e.g. on sign-out).
    /// - Parameter partition: The partition.
    func removeAll(in partition: String) throws

    /// Removes every cookie of every partition.
    func removeAll() throws
}

/// Cookies kept in memory for the life of the store.
public final class MemoryCookieStore: CookieStore {
    private let partitions = Mutex<[String: [Cookie]]>([:])

    /// Creates an empty store.
    public init() {}

    /// The cookies of `partition`.
    /// - Parameter partition: The partition.
    /// - Returns: Its cookies.
    public func cookies(in partition: String) -> [Cookie] {
        partitions.withLock { $0[partition] ?? [] }
    }

    /// Applies `change` under the store's lock.
    /// - Parameters:
    ///   - partition: The partition.
    ///   - change: The edit.
    public func update(_ partition: String, _ change: (inout [Cookie]) -> Void) {
        partitions.withLock { change(&$0[partition, default: []]) }
    }

    /// Removes the cookies of `partition`.
    /// - Parameter partition: The partition.
    public func removeAll(in partition: String) {
        _ = partitions.withLock { $0.removeValue(forKey: partition) }
    }

    /// Removes every cookie.
    public func removeAll() {
        partitions.withLock { $0.removeAll() }
    }
}
