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
    let configuration = ClientConfiguration(events: bus, retry: nil, plugins: [CachePlugin.make(cache: cache)])
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
