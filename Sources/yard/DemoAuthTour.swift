import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardTestServer
import Synchronization

/// The auth part of `yard demo`: the plugin registered on the running client, 20 concurrent
/// requests with an expired token, exactly one refresh, every request replayed.
struct DemoAuthTour {
    let server: LoopbackServer
    let transportName: String
    let client: Client

    /// Hands out an expired token until asked to refresh; counts refreshes.
    actor Session: CredentialProvider {
        private var credential = BearerCredential(token: "expired", identity: "demo-user")
        private(set) var refreshes = 0

        func current() async throws -> BearerCredential { credential }

        func refresh(stale: BearerCredential) async throws -> BearerCredential {
            refreshes += 1
            try await Task.sleep(for: .milliseconds(50))  // a token endpoint takes a moment
            credential = BearerCredential(token: "fresh", identity: "demo-user")
            return credential
        }
    }

    func run() async throws {
        let key = "demo-\(transportName)"
        server.setAuthToken("fresh", key: key)
        let session = Session()
        let auth = AuthPlugin(
            scope: RequestScope(hosts: ["127.0.0.1"], pathPrefixes: ["/auth"]), provider: session,
            name: "auth-\(transportName)")
        try client.register(.bearerAuth(auth))  // a department's plugin added to the running client
        defer { try? client.unregister(pluginNamed: "auth-\(transportName)") }
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    do {
                        return try await client.send(try Request(url: server.url("/auth/\(key)"))).head.status.code
                    } catch {
                        return 0
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let counts = server.authRequests(key: key)
        print(
            "   20 concurrent requests with an expired token: \(statuses.filter { $0 == 200 }.count) × 200,"
                + " \(await session.refreshes) refresh, the server refused \(counts.refused) and accepted \(counts.accepted)")
    }
}
