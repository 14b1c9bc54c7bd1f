import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// The README's token-refresh example, compiled and run against the loopback server (R34).

/// The app's session: the current token and how to get a new one.
actor Session: CredentialProvider {
    private var credential = BearerCredential(token: "expired-token", identity: "user-42")
    private let tokenEndpoint: @Sendable () async throws -> String

    init(tokenEndpoint: @escaping @Sendable () async throws -> String) {
        self.tokenEndpoint = tokenEndpoint
    }

    func current() async throws -> BearerCredential { credential }

    func refresh(stale: BearerCredential) async throws -> BearerCredential {
        credential = BearerCredential(token: try await tokenEndpoint(), identity: "user-42")
        return credential
    }
}

@Suite struct AuthReadmeExampleTests {
    @Test func theTokenRefreshExampleRuns() async throws {
        try await withLoopbackServer { server in
            server.setAuthToken("new-token", key: "profile")
            // README example starts here.
            let session = Session(tokenEndpoint: { "new-token" })  // your token endpoint
            let auth = AuthPlugin(scope: RequestScope(hosts: ["127.0.0.1"]), provider: session)
            var popUps = PopUpPolicy()
            popUps.add(auth.scope, AuthPlugin.popUpMessages)
            let client = try Client(
                transport: CurlTransport(),
                configuration: ClientConfiguration(popUps: popUps, plugins: [.bearerAuth(auth)]))

            let response = try await client.send(try Request(url: server.url("/auth/profile")))
            print(response.head.status, response.context[CredentialVersionKey.self] ?? 0)  // 200 OK 2
            // README example ends here.
            #expect(response.head.status == .ok)
            #expect(response.context[CredentialVersionKey.self] == 2)
            #expect(auth.partitionKey == "user-42")
        }
    }
}
