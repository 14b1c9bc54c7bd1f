import ServiceLifecycle
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardObservability
import SwitchyardServiceLifecycle
import SwitchyardTracing
import Testing

/// The metrics, tracing and lifecycle example of the *A tour of the package* article, built and shut
/// down (it sends nothing).
@Suite struct ObservabilityReadmeExampleTests {
    @Test func theReadmeExampleAssemblesMetricsTracingAndTheService() async throws {
        var configuration = ClientConfiguration()
        configuration.plugins.append(.httpMetrics(HTTPClientMetrics(templates: ["/users/{id}"])))  // swift-metrics
        configuration.plugins.append(.tracing())  // swift-distributed-tracing
        let transport = AsyncHTTPClientTransport()
        let client = try Client(transport: transport, configuration: configuration)
        let service = TransportService(transport)  // in your ServiceGroup: shuts the transport down

        #expect(client.chain.contains { $0.name.contains("Metrics") })
        #expect(client.chain.contains { $0.origin == .plugin(TracingPlugin.name) })
        _ = service
        try await transport.shutdown()
    }
}
