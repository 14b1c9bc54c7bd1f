import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardQuota
import SwitchyardTestServer
import Testing

/// The example quota plugin in an assembled client, against the loopback server: its option, its
/// error kind (with its pop-up) and its event, through the same points the built-ins use.
@Suite(.timeLimit(.minutes(2)))
struct QuotaPluginTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let instant = Lock(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    static func client(_ quota: Quota, bus: EventBus) throws -> Client {
        var configuration = ClientConfiguration(
            events: bus, retry: nil, plugins: [.quota(quota, name: "search", scope: RequestScope(pathPrefixes: ["/echo/search"]))])
        configuration.popUps?.defaults.kinds[.quotaExceeded] = QuotaPlugin.popUpText
        return try Client(transport: CurlTransport(), configuration: configuration)
    }

    @Test func callsSpendTheirCostAndTheOneThatWouldOverspendIsNeverSent() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let clock = ManualClock()
        let quota = Quota(units: 10, per: .seconds(60), now: { clock.now })
        let bus = EventBus()
        let events = bus.subscribe()
        let client = try Self.client(quota, bus: bus)

        _ = try await client.send(try Request(url: server.url("/echo/search/a")))  // 1 unit
        var export = try Request(url: server.url("/echo/search/export"))
        export.options.quotaCost = 8  // the request's own option
        _ = try await client.send(export)
        #expect(quota.remaining == 1)
        #expect(server.requestCount(path: "/echo/search/export") == 1)

        export.options.quotaCost = 2
        let error = await #expect(throws: SwitchyardError.self) { try await client.send(export) }
        #expect(error?.kind == .quotaExceeded)
        #expect(error?.message.contains("1 units left and this call costs 2") == true)
        #expect(server.requestCount(path: "/echo/search/export") == 1)  // refused before the transport

        // Out of scope: spends nothing.
        _ = try await client.send(try Request(url: server.url("/echo/other")))
        #expect(quota.remaining == 1)

        // The window restarts.
        clock.advance(by: .seconds(61))
        _ = try await client.send(export)
        #expect(quota.remaining == 8)

        var sawLow: QuotaLow?
        var popUp: String?
        for await event in events {
            if let low = event.plugin(QuotaLow.self) { sawLow = low }
            if case .failed(let failure) = event.kind, failure.kind == .quotaExceeded { popUp = event.popUp?.message }
            if sawLow != nil, popUp != nil { break }
        }
        #expect(sawLow == QuotaLow(department: "search", remaining: 1))  // the 8-unit call crossed the level (1)
        #expect(popUp == QuotaPlugin.popUpText)
    }

    @Test func theQuotaIsOneCallLinkInTheDepartmentLayer() throws {
        let client = try Self.client(Quota(units: 1, per: .seconds(1)), bus: EventBus())
        let links = client.chain.filter { $0.origin == .plugin("search") }
        #expect(links.map(\.name) == ["QuotaInterceptor"])
        #expect(links.map(\.position) == [.call])
    }
}
