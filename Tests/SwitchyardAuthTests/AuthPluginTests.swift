import HTTPTypes
import Logging
import Switchyard
import SwitchyardAuth
import SwitchyardConformance
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Versions, waits, scope and redaction of the auth plugin against the loopback server.
@Suite(.timeLimit(.minutes(2)))
struct AuthPluginTests {
    @Test(arguments: TransportKind.allCases)
    func a401OnAnOutdatedVersionReplaysWithTheCurrentCredentialWithoutRefresh(_ kind: TransportKind) async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "first-1", identity: "user-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        let latch = Latch()
        // Inside the auth link: holds the tagged request after it was signed, before it is sent.
        let hold = ClosureInterceptor { request, _, next in
            if request.options.tags.contains("held") { await latch.arriveAndWait() }
            return try await next(request)
        }
        try await withAuthClient(kind, auth: auth, configuration: ClientConfiguration(attemptInterceptors: [hold])) {
            client, server in
            server.setAuthToken("first-1", key: "k")
            var held = try Request(url: server.url("/auth/k"))
            held.options.tags = ["held"]
            let heldRequest = held
            let outdated = Task { try await client.send(heldRequest) }
            #expect(await eventually { latch.arrivals == 1 })
            #expect(auth.credentialVersion == 1)

            // The app gets a new credential elsewhere; the server now accepts only that one.
            server.setAuthToken("second-2", key: "k")
            provider.setCurrent(BearerCredential(token: "second-2", identity: "user-2"))
            let fresh = try await client.send(try Request(url: server.url("/auth/k")))
            #expect(fresh.head.status == .ok)
            #expect(fresh.context[CredentialVersionKey.self] == 2)

            latch.open()
            let replayed = try await outdated.value
            #expect(replayed.head.status == .ok)
            #expect(replayed.context[CredentialVersionKey.self] == 2, "replayed with the current version")
            #expect(provider.refreshes == 0)
            #expect(server.authRequests(key: "k").refused == 1)
            #expect(server.authRequests(key: "k").accepted == 2)
            #expect(auth.partitionKey == "user-2")
        }
    }

    @Test func aWaitForTheRefreshIsCancellableAndTheRefreshGoesOnForOthers() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(.curl, auth: auth) { client, server in
            server.setAuthToken("fresh-2", key: "k")
            let request = try Request(url: server.url("/auth/k"))
            let first = Task { try await client.send(request) }
            #expect(await eventually { auth.waitingRequestCount == 1 })
            first.cancel()
            await #expect { try await first.value } throws: { ($0 as? SwitchyardError)?.kind == .cancelled }
            #expect(auth.waitingRequestCount == 0)

            let second = Task { try await client.send(request) }
            #expect(await eventually { auth.waitingRequestCount == 1 })
            provider.release(with: .success(BearerCredential(token: "fresh-2")))
            #expect(try await second.value.head.status == .ok)
            #expect(provider.refreshes == 1)
        }
    }

    @Test func aWaitForTheRefreshEndsAtTheRequestsDeadline() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(.curl, auth: auth, configuration: ClientConfiguration(retry: nil)) { client, server in
            server.setAuthToken("fresh-2", key: "k")
            let starter = Task { try await client.send(try Request(url: server.url("/auth/k"))) }
            #expect(await eventually { auth.waitingRequestCount == 1 })

            var bounded = try Request(url: server.url("/auth/k"))
            bounded.options.timeout = .milliseconds(200)
            let error = await failure(of: client, bounded)
            #expect(error?.kind == .timeout)
            #expect(server.authRequests(key: "k").refused == 1, "the bounded request waited and was never sent")

            provider.release(with: .success(BearerCredential(token: "fresh-2")))
            #expect(try await starter.value.head.status == .ok)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theCredentialNeverGoesToAHostOutsideTheScopeNotEvenByRedirect(_ kind: TransportKind) async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "secret-token-1"))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        try await withAuthClient(kind, auth: auth) { client, server in
            try await withLoopbackServer(.init(host: "127.0.0.2")) { other in
                let inScope = try EchoReport(json: try await client.send(try Request(url: server.url("/echo"))).body)
                #expect(inScope.values(of: "Authorization") == ["Bearer secret-token-1"])

                let direct = try EchoReport(json: try await client.send(try Request(url: other.url("/echo"))).body)
                #expect(direct.values(of: "Authorization").isEmpty)

                let location = other.url("/echo")
                let redirected = try await client.send(
                    try Request(
                        url: server.url("/redirect-to?location=\(location.addingPercentEncodingForQuery())")))
                let echo = try EchoReport(json: redirected.body)
                #expect(echo.uri == "/echo", "the redirect reached the other host")
                #expect(echo.values(of: "Authorization").isEmpty)
            }
        }
    }

    @Test func theTokenIsRedactedInLogsAndHAR() async throws {
        let provider = HeldRefreshProvider(BearerCredential(token: "stale-token-1"))
        provider.release(with: .success(BearerCredential(token: "fresh-token-2")))
        let auth = AuthPlugin(scope: loopbackScope, provider: provider)
        let log = CapturedLog()
        let har = HARRecorder()
        var configuration = ClientConfiguration(attemptInterceptors: [har.interceptor])
        configuration.plugins.append(.logging(LoggingConfiguration(logger: log.logger(level: .trace))))
        try await withAuthClient(.curl, auth: auth, configuration: configuration) { client, server in
            server.setAuthToken("fresh-token-2", key: "k")
            let response = try await client.send(try Request(url: server.url("/auth/k")))
            #expect(response.head.status == .ok)
            #expect(provider.refreshes == 1)
        }
        #expect(await eventually { har.count == 2 }, "the 401 and the replay")
        let json = har.json()
        #expect(json.contains("<redacted>"))
        #expect(!log.text.isEmpty)
        for token in ["stale-token-1", "fresh-token-2"] {
            #expect(!json.contains(token))
            #expect(!log.text.contains(token))
        }
        #expect(!"\(BearerCredential(token: "stale-token-1"))".contains("stale-token-1"))
    }
}

extension String {
    /// Percent-encodes everything but unreserved characters, for a query value.
    fileprivate func addingPercentEncodingForQuery() -> String {
        var encoded = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                encoded += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return encoded
    }
}
