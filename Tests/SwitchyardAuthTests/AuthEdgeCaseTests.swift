import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// What the auth plugin does when replaying is impossible or pointless.
@Suite(.timeLimit(.minutes(2)))
struct AuthEdgeCaseTests {
    /// A provider with no credential: the user is signed out.
    struct SignedOut: CredentialProvider {
        struct NoSession: Error {}
        func current() async throws -> BearerCredential { throw NoSession() }
        func refresh(stale: BearerCredential) async throws -> BearerCredential { throw NoSession() }
    }

    @Test func aFreshCredentialTheServerStillRefusesReturnsThe401WithoutAnotherRefresh() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        provider.release(with: .success(BearerCredential(token: "also-refused-2")))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(.curl, auth: auth) { client, server in
            server.setAuthToken("something-else", key: "k")
            let response = try await client.send(try Request(url: server.url("/auth/k")))
            #expect(response.head.status == .unauthorized)
            #expect(provider.refreshes == 1)
            #expect(server.authRequests(key: "k").refused == 2, "the first attempt and one replay")
        }
    }

    @Test func aSingleUseBodyIsNotReplayedAndThe401IsReturned() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        provider.release(with: .success(BearerCredential(token: "fresh-2")))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(.curl, auth: auth) { client, server in
            server.setAuthToken("fresh-2", key: "k")
            let stream = AsyncStream<[UInt8]> { continuation in
                continuation.yield(Array("payload".utf8))
                continuation.finish()
            }
            let request = try Request(method: .post, url: server.url("/auth/k"), body: HTTPBody(stream))
            let response = try await client.send(request)
            #expect(response.head.status == .unauthorized)
            #expect(server.authRequests(key: "k").refused == 1)
        }
    }

    @Test func aSignedOutProviderFailsTheRequestAsUnauthorizedBeforeSending() async throws {
        let auth = AuthPlugin(scope: loopbackScope, provider: SignedOut())
        try await withAuthClient(.curl, auth: auth) { client, server in
            let error = await failure(of: client, try Request(url: server.url("/auth/k")))
            #expect(error?.kind == .unauthorized)
            #expect(error?.underlyingError is SignedOut.NoSession)
            #expect(server.authRequests(key: "k") == (0, 0))
            #expect(auth.partitionKey == nil)
        }
    }

    @Test func afterAFailedRefreshTheSameCredentialFailsAtOnceAndANewOneStartsOver() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        provider.release(with: .failure(.init()))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(.curl, auth: auth) { client, server in
            server.setAuthToken("fresh-2", key: "k")
            let request = try Request(url: server.url("/auth/k"))
            #expect(await failure(of: client, request)?.kind == .unauthorized)
            #expect(await failure(of: client, request)?.kind == .unauthorized)
            #expect(provider.refreshes == 1, "no second refresh for a credential whose refresh failed")

            provider.setCurrent(BearerCredential(token: "fresh-2"))  // the user signed in again
            #expect(try await client.send(request).head.status == .ok)
            #expect(auth.credentialVersion == 2)
        }
    }
}

/// The token stays out of errors, in memory.
@Suite struct AuthErrorRedactionTests {
    @Test func aTransportErrorCarriesTheRequestHeadWithoutTheToken() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "secret-token-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        let transport = ClosureTransport { request, _ in
            #expect(request.head.headerFields[.authorization] == "Bearer secret-token-1")
            throw SwitchyardError.connectionFailed("refused")
        }
        let client = try Client(transport: transport, configuration: ClientConfiguration(retry: nil, plugins: [.bearerAuth(auth)]))
        let error = await failure(of: client, try Request(url: "http://127.0.0.1:9/x"))
        #expect(error?.kind == .connectionFailed)
        #expect(error?.request != nil)
        #expect(error?.request?.headerFields[.authorization] == nil)
        #expect(!"\(String(describing: error))".contains("secret-token-1"))
    }
}
