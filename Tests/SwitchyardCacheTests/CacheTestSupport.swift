import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCache
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession

/// The `succeeded` events' provenances, in order.
final class ProvenanceLog: Sendable {
    private let entries = Lock<[ResponseProvenance]>([])

    func record(_ event: ExchangeEvent) {
        guard case .succeeded = event.kind, let provenance = event.provenance else { return }
        entries.withLock { $0.append(provenance) }
    }

    var sources: [ResponseProvenance.Source] { entries.withLock { $0.map(\.source) } }
}

/// Starts a loopback server and a client over `kind` with `cache` as a plugin (no retries, so a
/// failure reaches the cache at once), runs `body`, and shuts both down.
func withCachingClient<T>(
    _ kind: TransportKind, cache: HTTPCache, log: ProvenanceLog = ProvenanceLog(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    let bus = EventBus()
    bus.addObserver { log.record($0) }
    let configuration = ClientConfiguration(events: bus, retry: nil, plugins: [.cache(cache)])
    return try await withLoopbackClient(kind, configuration: configuration, body)
}

/// A GET of `path` on `server`, with `policy` and header fields.
func get(
    _ server: LoopbackServer, _ path: String, policy: CachePolicy? = nil, headers: KeyValuePairs<String, String> = [:]
) throws -> Request {
    var request = try Request(url: server.url(path), headers: headers)
    request.options.cachePolicy = policy
    return request
}

/// A new empty directory under the temporary directory.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "switchyard-cache-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The entry files under a disk cache directory.
func entryFiles(in directory: String) -> [String] {
    let manager = FileManager.default
    let folders = (try? manager.contentsOfDirectory(atPath: directory)) ?? []
    return folders.filter { !$0.hasPrefix(".") }.flatMap { folder in
        ((try? manager.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []).map { directory + "/" + folder + "/" + $0 }
    }
}

/// The `X-Request-Number` the loopback server's cache routes send: which request for the key answered.
let requestNumber = HTTPField.Name("X-Request-Number")!

/// A wall clock the test moves by hand, for ``CacheConfiguration/now``: ages and freshness then
/// depend on the test's steps, never on how fast the machine runs it.
final class TestClock: Sendable {
    private let current: Lock<Date>

    /// A clock standing at `start` (default: the real time now, close to the server's `Date`).
    init(_ start: Date = Date()) {
        current = Lock(start)
    }

    /// Reads the clock.
    var now: @Sendable () -> Date {
        { [current] in current.withLock { $0 } }
    }

    /// Moves the clock forward.
    func advance(seconds: Double) {
        current.withLock { $0 += seconds }
    }
}

/// The path of `/cache-fields/{key}` sending `fields` verbatim, plus further query parameters.
func fieldsPath(_ key: String, _ fields: KeyValuePairs<String, String>, query: String = "") -> String {
    let encoded = fields.map { field in
        "field=" + (field.key + ":" + field.value).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
    return "/cache-fields/\(key)?" + (encoded + (query.isEmpty ? [] : [query])).joined(separator: "&")
}

/// A GET of `path` on `server` with a `Cache-Control` request field (and the cache's default policy).
func get(_ server: LoopbackServer, _ path: String, cacheControl: String) throws -> Request {
    try get(server, path, headers: ["Cache-Control": cacheControl])
}

/// The loopback server's pattern bytes `range` (byte `i` is `i % 251`).
func patternBytes(_ range: Range<Int>) -> [UInt8] {
    range.map(expectedPatternByte(at:))
}
