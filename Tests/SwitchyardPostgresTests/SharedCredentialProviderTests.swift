import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardCurl
import SwitchyardPostgres
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// One refresh for many clients that share a credential through PostgreSQL: each client stands for
/// a process (its own provider, pool and auth plugin); the multi-process version is in `YardTests`.
@Suite struct SharedCredentialProviderTests {
    /// Fetches a token from the loopback server's token endpoint, as a real one would.
    static func fetcher(_ server: LoopbackServer, key: String) -> SharedCredentialProvider.Fetch {
        { stale in
            let client = Client(transport: CurlTransport(), interceptors: [])
            var request = try Request(method: .post, url: server.url("/token/\(key)"))
            request.body = HTTPBody(Array((stale?.refreshToken ?? "first").utf8))
            let response = try await client.send(request)
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            guard let token = object?["access_token"] as? String else { throw SwitchyardError.decoding("no access_token") }
            return SharedCredentialProvider.Record(credential: BearerCredential(token: token), refreshToken: "r-\(token)")
        }
    }

    @Test func fourClientsWithTwentyConcurrent401sEachRefreshOnceForAll() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = PostgresTestDatabase.uniqueKey("fleet")
        // The fleet starts with a token the server no longer accepts.
        let seed = try PostgresTestDatabase.shared()
        let seeding = SharedCredentialProvider(shared: seed, key: key) { _ in
            .init(credential: BearerCredential(token: "expired"), refreshToken: "r0")
        }
        #expect(try await seeding.current().token == "expired")
        await seed.shutdown()
        server.setAuthToken("never-issued", key: key)

        let providers = try (0..<4).map { _ in
            SharedCredentialProvider(
                shared: try PostgresTestDatabase.shared(), key: key, lockTimeout: .seconds(180), fetch: Self.fetcher(server, key: key))
        }
        let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
            for provider in providers {
                group.addTask {
                    let auth = AuthPlugin(scope: RequestScope(hosts: ["127.0.0.1"]), provider: provider)
                    let client = try Client(
                        transport: CurlTransport(), configuration: ClientConfiguration(retry: nil, plugins: [.bearerAuth(auth)]))
                    let request = try Request(url: server.url("/auth/\(key)"))
                    let results = await client.send(all: Array(repeating: request, count: 20), maxConcurrency: 20)
                    return results.map { (try? $0.get().head.status.code) ?? -1 }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(statuses.count == 80)
        #expect(statuses.allSatisfy { $0 == 200 }, "statuses: \(Set(statuses))")
        #expect(server.issuedTokens(key: key) == 1)
        #expect(providers.map(\.fetchCount).reduce(0, +) == 1)
    }

    @Test func aRefreshTokenIsUsedOnceAndTheNewOneReachesEveryClient() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let key = PostgresTestDatabase.uniqueKey("rotate")
        let used = Lock<[String]>([])
        let fetch: SharedCredentialProvider.Fetch = { stale in
            let refreshToken = stale?.refreshToken ?? "r0"
            used.withLock { $0.append(refreshToken) }
            let next = used.withLock { $0.count }
            return .init(credential: BearerCredential(token: "t\(next)"), refreshToken: "r\(next)")
        }
        let first = SharedCredentialProvider(shared: try PostgresTestDatabase.shared(), key: key, lockTimeout: .seconds(180), fetch: fetch)
        let second = SharedCredentialProvider(shared: try PostgresTestDatabase.shared(), key: key, lockTimeout: .seconds(180), fetch: fetch)
        #expect(try await first.current().token == "t1")
        #expect(try await second.current().token == "t1")  // the fleet's, not a fetch of its own
        // Both see t1 refused at once: one fetch with r1, and both end with t2.
        async let a = first.refresh(stale: BearerCredential(token: "t1"))
        async let b = second.refresh(stale: BearerCredential(token: "t1"))
        let (refreshedA, refreshedB) = try await (a, b)
        #expect(refreshedA.token == "t2" && refreshedB.token == "t2")
        #expect(used.withLock { $0 } == ["r0", "r1"])
    }

    @Test func anUnreachableDatabaseFailsWithinTheBoundWithoutThePassword() async throws {
        let shared = try PostgresSharedState(
            url: "postgres://app:s3cret-pw@127.0.0.1:9/none", operationTimeout: .seconds(2))
        let provider = SharedCredentialProvider(shared: shared, key: "k") { _ in
            .init(credential: BearerCredential(token: "never"))
        }
        do {
            _ = try await provider.current()
            Issue.record("a credential came from an unreachable database")
        } catch let error as SwitchyardError {
            #expect(error.kind == .sharedStateUnavailable)
            #expect(error.message.contains("127.0.0.1:9/none"))
            #expect(!error.description.contains("s3cret-pw"))
        }
        await shared.shutdown()
    }

    @Test func anUnreachableDatabaseCanFallBackToARefreshInThisProcess() async throws {
        let shared = try PostgresSharedState(url: "postgres://app@127.0.0.1:9/none", operationTimeout: .seconds(1))
        let provider = SharedCredentialProvider(shared: shared, key: "k", refreshesLocallyWhenUnavailable: true) { _ in
            .init(credential: BearerCredential(token: "local"))
        }
        #expect(try await provider.refresh(stale: BearerCredential(token: "old")).token == "local")
        #expect(provider.fetchCount == 1)
        await shared.shutdown()
    }
}
