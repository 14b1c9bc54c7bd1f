import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

/// The built-in interceptors where their behaviour could depend on the transport underneath:
/// every scenario runs on curl, URLSession and AsyncHTTPClient against the loopback server.
@Suite("Built-in chain on every transport", .timeLimit(.minutes(3)))
struct ChainOnEveryTransportTests {
    enum Backend: String, CaseIterable, Sendable, CustomStringConvertible {
        case curl, urlSession, asyncHTTPClient
        var description: String { rawValue }

        func withClient(
            _ configuration: ClientConfiguration, _ body: (Client, LoopbackServer) async throws -> Void
        ) async throws {
            let server = try await LoopbackServer.start()
            let ahc = self == .asyncHTTPClient ? AsyncHTTPClientTransport() : nil
            let transport: any Transport =
                switch self {
                case .curl: CurlTransport()
                case .urlSession: URLSessionTransport()
                case .asyncHTTPClient: ahc ?? AsyncHTTPClientTransport()
                }
            var failure: (any Error)?
            do {
                try await body(try Client(transport: transport, configuration: configuration), server)
            } catch {
                failure = error
            }
            try? await ahc?.shutdown()
            try? await server.shutdown()
            if let failure { throw failure }
        }
    }

    /// Retries immediately unless the server asks for a wait.
    static func promptRetry(_ attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, backoff: RetryBackoff(random: { 0 }))
    }

    @Test(arguments: Backend.allCases)
    func aFailingPostIsSentOnceUnlessItHasAnIdempotencyKey(_ backend: Backend) async throws {
        try await backend.withClient(ClientConfiguration(retry: Self.promptRetry())) { client, server in
            let plain = try Request(method: .post, url: server.url("/flaky/plain/100"), body: HTTPBody("order"))
            #expect(try await client.send(plain).head.status.code == 503)
            #expect(server.flakyArrivals(key: "plain").count == 1)
            let keyed = try Request(
                method: .post, url: server.url("/flaky/keyed/2"),
                headers: ["Idempotency-Key": "order-42"], body: HTTPBody("order"))
            #expect(try await client.send(keyed).head.status == .ok)
            #expect(server.flakyArrivals(key: "keyed").count == 3)
        }
    }

    @Test(arguments: Backend.allCases)
    func retryAfterIsHonouredOnTheServersClock(_ backend: Backend) async throws {
        try await backend.withClient(ClientConfiguration(retry: Self.promptRetry())) { client, server in
            #expect(try await client.send(try Request(url: server.url("/flaky/later/1?retry-after=1"))).head.status == .ok)
            let arrivals = server.flakyArrivals(key: "later")
            try #require(arrivals.count == 2)
            #expect(arrivals[0].duration(to: arrivals[1]) >= .seconds(1))
        }
    }

    @Test(arguments: Backend.allCases)
    func aCrossOriginRedirectDoesNotCarryCredentials(_ backend: Backend) async throws {
        let other = try await LoopbackServer.start()
        defer { Task { try? await other.shutdown() } }
        try await backend.withClient(ClientConfiguration()) { client, server in
            let target = other.url("/echo").addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let request = try Request(
                url: server.url("/redirect-to?location=\(target)&status=307"),
                headers: ["Authorization": "Bearer secret-token", "X-Trace": "kept"])
            let echo = try EchoReport(json: try await client.send(request).body)
            #expect(echo.values(of: "Authorization").isEmpty)
            #expect(echo.values(of: "X-Trace") == ["kept"])
        }
    }

    @Test(arguments: Backend.allCases)
    func aBurstOfFailuresShowsOnePopUp(_ backend: Backend) async throws {
        let refusing = try RefusingPort()
        let url = refusing.url("/small")
        let bus = EventBus()
        let shown = Lock(0)
        bus.addObserver { event in if event.popUp?.isWorthShowing == true { shown.withLock { $0 += 1 } } }
        let configuration = ClientConfiguration(events: bus, popUps: PopUpPolicy(coalescingWindow: .seconds(60)), retry: nil)
        try await backend.withClient(configuration) { client, _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<10 { group.addTask { _ = try? await client.send(try Request(url: url)) } }
            }
        }
        refusing.close()
        #expect(shown.withLock { $0 } == 1)
    }

    @Test(arguments: Backend.allCases)
    func cancellingDuringTheBackOffStopsTheRetryLoop(_ backend: Backend) async throws {
        let bus = EventBus()
        let retrying = bus.subscribe()
        var retry = Self.promptRetry(5)
        retry.maxRetryAfter = .seconds(600)
        try await backend.withClient(ClientConfiguration(events: bus, retry: retry)) { client, server in
            let task = Task { try await client.send(try Request(url: server.url("/flaky/cancel/100?retry-after=300"))) }
            for await event in retrying where event.kind.name == "retrying" { break }
            task.cancel()
            let result = await task.result
            guard case .failure(let error) = result else {
                Issue.record("the call succeeded")
                return
            }
            #expect(SwitchyardError.wrapping(error).kind == .cancelled)
            #expect(server.flakyArrivals(key: "cancel").count == 1)
        }
    }
}
