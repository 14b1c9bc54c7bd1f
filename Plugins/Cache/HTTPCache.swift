import Foundation
import HTTPTypes
import SwitchyardCore

/// An HTTP cache: a store, its configuration, and the current partition. Give it to
/// `Plugin.cache(_:name:scope:placement:)` to put it in a client's chain; keep it to
/// switch partitions on sign-in and clear them on sign-out.
///
/// ```swift
/// let cache = HTTPCache(store: try DiskCacheStore(directory: cachesPath + "/http"))
/// let client = try Client(transport: CurlTransport(),
///                         configuration: ClientConfiguration(plugins: [.cache(cache)]))
/// cache.partition = session.userID      // on sign-in: this user's entries only
/// cache.removeAll(partition: session.userID)   // on sign-out
/// ```
///
/// ### Partitions
///
/// Every entry belongs to a partition — the signed-in identity, supplied by the app or an auth
/// plugin — and a request reads and writes only the current partition's entries, so one user's
/// responses are never served to another. The default partition is `""` (no one signed in).
public final class HTTPCache: Sendable {
    /// Where entries are kept.
    public let store: any CacheStore
    /// How the cache behaves.
    public let configuration: CacheConfiguration
    private let currentPartition: Lock<String>

    /// Creates a cache.
    /// - Parameters:
    ///   - store: Where entries are kept (default: a ``MemoryCacheStore`` of 10 MiB).
    ///   - configuration: How it behaves.
    ///   - partition: The initial partition (default `""`).
    public init(
        store: any CacheStore = MemoryCacheStore(), configuration: CacheConfiguration = CacheConfiguration(),
        partition: String = ""
    ) {
        self.store = store
        self.configuration = configuration
        self.currentPartition = Lock(partition)
    }

    /// The partition requests read and write from now on: the signed-in identity, `""` for none.
    public var partition: String {
        get { currentPartition.withLock { $0 } }
        set { currentPartition.withLock { $0 = newValue } }
    }

    /// Removes every entry of `partition` (e.g. when its user signs out).
    /// - Parameter partition: The partition.
    /// - Throws: The store's error when it cannot be written (a shared store whose database is down).
    public func removeAll(partition: String) async throws {
        try await store.removeAll(partition: partition)
    }

    /// Removes every entry of every partition.
    /// - Throws: The store's error when it cannot be written.
    public func removeAll() async throws {
        try await store.removeAll()
    }

    /// The current time in seconds since 1970.
    func now() -> Double { configuration.now().timeIntervalSince1970 }

    // MARK: - Background revalidation

    /// The deadline of a background revalidation whose request had none: a minute from its start
    /// (with one, it gets as long as the request had).
    public static let backgroundRevalidationTimeout: Duration = .seconds(60)

    /// The keys being revalidated in the background now, and how many revalidations were started.
    private struct Revalidations {
        var inFlight: Set<CacheKey> = []
        var started = 0
    }

    private let revalidations = Lock(Revalidations())

    /// Claims the background revalidation of `key`: `false` when one is already running (one at a
    /// time per key, RFC 5861 §3 leaves the rest to the cache).
    func beginBackgroundRevalidation(of key: CacheKey) -> Bool {
        revalidations.withLock { state in
            guard state.inFlight.insert(key).inserted else { return false }
            state.started += 1
            return true
        }
    }

    /// The background revalidation of `key` finished (whatever its outcome).
    func endBackgroundRevalidation(of key: CacheKey) {
        revalidations.withLock { _ = $0.inFlight.remove(key) }
    }

    /// Background revalidations started so far.
    var backgroundRevalidationsStarted: Int { revalidations.withLock { $0.started } }

    /// Background revalidations running now.
    var backgroundRevalidationsInFlight: Int { revalidations.withLock { $0.inFlight.count } }

    // MARK: - Partial content

    /// Stores the partial response `part` under `key`, combined with the part stored there when both
    /// belong to one representation (``CachedResponse/combining(_:with:limit:)``).
    func storePart(_ part: CachedResponse, key: CacheKey, limit: Int) async throws {
        let stored: CachedResponse? = if case .response(let response)? = try await store.record(for: key) { response } else { nil }
        guard let combined = CachedResponse.combining(part, with: stored, limit: limit) else { return }
        try await store.store(.response(combined), for: key)
    }

    // MARK: - Keys

    /// The key of `head`'s resource in the current partition (`GET` and `HEAD` share one), or `nil`
    /// for a request without an absolute URL.
    func primaryKey(for head: HTTPRequest) -> CacheKey? {
        guard let scheme = head.scheme, let authority = head.authority else { return nil }
        return CacheKey(partition: partition, resource: "GET " + scheme + "://" + authority + (head.path ?? "/"))
    }

    /// The stored response for `head` under `primary`, following a `Vary` index to the variant.
    func lookup(_ head: HTTPRequest, primary: CacheKey) async throws -> (key: CacheKey, response: CachedResponse)? {
        // A status outside 200…999 (only a faulty custom store could hold one) is a miss, never a crash.
        switch try await store.record(for: primary) {
        case .response(let response)? where (200...999).contains(response.status):
            return (primary, response)
        case .variants(let names, let generation)?:
            let key = primary.variant([generation] + Self.varyValues(names, of: head))
            guard case .response(let response)? = try await store.record(for: key), (200...999).contains(response.status) else {
                return nil
            }
            return (key, response)
        case .response?:
            return nil
        case nil:
            return nil
        }
    }

    /// Where a response to `head` with these header fields goes: `primary`, or a variant key after
    /// storing the `Vary` index; `nil` for `Vary: *` (never reusable).
    func storageKey(for head: HTTPRequest, responseFields: HTTPFields, primary: CacheKey) async throws -> CacheKey? {
        let names = responseFields[values: .vary]
            .flatMap { $0.split(separator: ",") }
            .map { String($0.trimmingOptionalWhitespace()).lowercased() }
            .filter { !$0.isEmpty }
        guard !names.contains("*") else { return nil }
        guard !names.isEmpty else { return primary }
        let generation: String
        if case .variants(names, let existing)? = try await store.record(for: primary) {
            generation = existing
        } else {
            generation = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            try await store.store(.variants(names: names, generation: generation), for: primary)
        }
        return primary.variant([generation] + Self.varyValues(names, of: head))
    }

    /// Removes what is stored for `head`'s resource after an unsafe method succeeded on it, and for
    /// the same-origin URLs the response's `Location` and `Content-Location` name (RFC 9111 §4.4).
    func invalidate(_ head: HTTPRequest, response: HTTPFields) async throws {
        guard let key = primaryKey(for: head), let scheme = head.scheme, let authority = head.authority else { return }
        try await store.removeRecord(for: key)
        let origin = scheme + "://" + authority
        for value in [response[.location], response[.contentLocation]].compactMap({ $0 }) {
            let url = value.hasPrefix("/") ? origin + value : value
            guard url.hasPrefix(origin + "/") else { continue }
            try await store.removeRecord(for: CacheKey(partition: key.partition, resource: "GET " + url))
        }
    }

    private static func varyValues(_ names: [String], of head: HTTPRequest) -> [String] {
        names.map { name in
            let values = HTTPField.Name(name).map { head.headerFields[values: $0] } ?? []
            return name + "=" + values.joined(separator: ", ")
        }
    }
}
