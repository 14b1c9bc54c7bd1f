import HTTPTypes
import Switchyard
import SwitchyardAuth
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Many concurrent 401s against the loopback server, on every transport: one refresh for all.
@Suite(.timeLimit(.minutes(3)))
struct AuthRefreshTests {
    static let concurrentRequests = 50

    /// Sends ``concurrentRequests`` requests to `/auth/k` at once, and releases the held refresh with
    /// `outcome` once every one of them waits for it (each request waits either before it is sent or
    /// after its 401: nothing depends on which).
    static func sendConcurrently(
        _ client: Client, _ server: LoopbackServer, auth: AuthPlugin, provider: HeldRefreshProvider,
        releasing outcome: Result<BearerCredential, HeldRefreshProvider.RefreshFailed>
    ) async throws -> [Result<BufferedResponse, SwitchyardError>] {
        let request = try Request(url: server.url("/auth/k"))
        return try await withThrowingTaskGroup(of: Result<BufferedResponse, SwitchyardError>.self) { group in
            for _ in 0..<concurrentRequests {
                group.addTask {
                    do throws(SwitchyardError) {
                        return .success(try await client.send(request))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            let allWaiting = await eventually { auth.waitingRequestCount == concurrentRequests }
            #expect(allWaiting, "every request waits for the refresh")
            provider.release(with: outcome)
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func fiftyConcurrent401sRunExactlyOneRefreshAndAllSucceed(_ kind: TransportKind) async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1", identity: "user-7"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(kind, auth: auth) { client, server in
            server.setAuthToken("fresh-2", key: "k")
            let results = try await Self.sendConcurrently(
                client, server, auth: auth, provider: provider,
                releasing: .success(BearerCredential(token: "fresh-2", identity: "user-7")))
            let statuses = results.map { try? $0.get().head.status.code }
            #expect(statuses == Array(repeating: 200, count: Self.concurrentRequests))
            #expect(provider.refreshes == 1)
            #expect(auth.refreshCount == 1)
            #expect(server.authRequests(key: "k").accepted == Self.concurrentRequests)
            #expect(results.allSatisfy { (try? $0.get().context[CredentialVersionKey.self]) == 2 })
            #expect(auth.credentialVersion == 2)
            #expect(auth.partitionKey == "user-7")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aFailedRefreshFailsAllFiftyAsUnauthorizedWithOnePopUp(_ kind: TransportKind) async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        let bus = EventBus()
        let events = CollectedEvents(bus)
        var popUps = PopUpPolicy(coalescingWindow: .seconds(3600))  // a window no slow machine outlasts
        popUps.add(loopbackScope, AuthPlugin.popUpMessages)
        try await withAuthClient(kind, auth: auth, configuration: ClientConfiguration(events: bus, popUps: popUps)) {
            client, server in
            server.setAuthToken("fresh-2", key: "k")
            let results = try await Self.sendConcurrently(
                client, server, auth: auth, provider: provider, releasing: .failure(.init()))
            let kinds = results.map { result -> SwitchyardError.Kind? in
                if case .failure(let error) = result { return error.kind }
                return nil
            }
            #expect(kinds == Array(repeating: .unauthorized, count: Self.concurrentRequests))
            #expect(provider.refreshes == 1)
            #expect(server.authRequests(key: "k").accepted == 0)
            #expect(events.names.filter { $0 == "failed" }.count == Self.concurrentRequests)
            #expect(events.worthyPopUps == [PopUp(message: "Please sign in again.")])
            let error = try #require(
                results.first.flatMap { result -> SwitchyardError? in
                    if case .failure(let error) = result { return error }
                    return nil
                })
            #expect(error.underlyingError is HeldRefreshProvider.RefreshFailed)
            #expect(!error.description.contains("stale-1"), "the token is never in an error")
        }
    }
}
