import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

/// The README's traffic-control example, run against the embedded server.
@Suite(.timeLimit(.minutes(2))) struct TrafficReadmeExampleTests {
    @Test func limitsPrioritiesActivityAndCancellingAScreen() async throws {
        let server = try await LoopbackServer.start()
        let transport = CurlTransport()

        let tracker = ExchangeTracker()
        var configuration = ClientConfiguration()
        configuration.plugins = [
            .concurrencyLimit(ConcurrencyLimiter(maxExchanges: 16, maxExchangesPerHost: 4)),
            .tracking(tracker),
            .coalescing(CoalescingPolicy()),
            .circuitBreaker(CircuitBreaker(policy: CircuitBreakerPolicy()))
        ]
        let client = try Client(transport: transport, configuration: configuration)

        var request = try Request(url: server.url("/gate/readme?id=me&tag=readme"))
        request.options.tags = ["profile-screen"]
        request.options.priority = .userInitiated
        let updates = tracker.activityUpdates()  // subscribed now, before the request starts
        let me = Task { try await client.send(request) }
        let spinner = Task {
            var sawActivity = false
            for await activity in updates {
                if activity.isActive { sawActivity = true } else if sawActivity { return true }
            }
            return false
        }
        #expect(await eventually { server.gate(key: "readme").held == 1 })
        #expect(tracker.cancel(tagged: "profile-screen") == 1)  // the screen went away
        let error = await #expect(throws: SwitchyardError.self) { try await me.value }
        #expect(error?.kind == .cancelled)
        #expect(await spinner.value)  // the spinner came and went
        #expect(await server.waitForDisconnect(tag: "readme", timeout: .seconds(30)))

        try await transport.shutdown()
        try await server.shutdown()
    }
}
