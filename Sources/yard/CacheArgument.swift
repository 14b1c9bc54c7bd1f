import SwitchyardCache
import SwitchyardPostgres

/// The cache `--cache VALUE` names: a directory (several processes on one machine may share it), or
/// a `postgres://user@host:port/database` URL (a password from `PGPASSWORD`) for the cache a fleet
/// shares.
enum CacheArgument {
    /// The cache, and the shared state to shut down after the command when there is one.
    static func cache(_ value: String, timeout: Duration = .seconds(5)) throws -> (HTTPCache, PostgresSharedState?) {
        guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
            return (HTTPCache(store: try DiskCacheStore(directory: value)), nil)
        }
        let shared = try PostgresSharedState(url: value, operationTimeout: timeout)
        return (fleetCache(shared), shared)
    }

    /// The fleet's cache in `shared`: up to 4 GiB together, entries of any size up to 2 GiB.
    static func fleetCache(_ shared: PostgresSharedState) -> HTTPCache {
        var configuration = CacheConfiguration()
        configuration.maxEntryBytes = 2 << 30
        return HTTPCache(store: PostgresCacheStore(shared: shared, maxBytes: 4 << 30), configuration: configuration)
    }
}
