import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCache
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The API layer reports where a value came from and how old it is.
@Suite(.timeLimit(.minutes(2)))
struct CacheAPITests {
    @Test(arguments: TransportKind.allCases)
    func responseInfoSaysCacheAndAge(_ kind: TransportKind) async throws {
        try await withCachingClient(kind, cache: HTTPCache()) { client, server in
            let api = try APIClient(client: client, baseURL: server.baseURL)
            let endpoint = Endpoint<String>(.get, "/cache/api", decoding: .text).query("max_age", 600)
            let first = try await api.response(endpoint)
            #expect(first.info.source == .network)
            #expect(first.info.age == nil)
            let second = try await api.response(endpoint)
            #expect(second.value == "api #1\n")
            #expect(second.info.source == .cache)
            #expect(second.info.age != nil)

            // A policy per call travels in the call's user info.
            server.setCacheMode(.status(503), key: "api")
            let offline = try await api.response(
                endpoint, userInfo: [RequestOptions.cachePolicyKey: CachePolicy.staleIfError.rawValue])
            #expect(offline.value == "api #1\n")
            #expect(offline.info.source == .cache)  // still fresh: served from the cache after the 503
            let cached = try await api.response(endpoint, userInfo: [RequestOptions.cachePolicyKey: CachePolicy.cacheOnly.rawValue])
            #expect(cached.info.source == .cache)
        }
    }
}
