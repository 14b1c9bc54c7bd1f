import ServiceLifecycle
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardObservability
import SwitchyardServiceLifecycle
import SwitchyardTracing
import Testing

/// The README's metrics, tracing and lifecycle example, built and shut down (it sends nothing). The
/// README still shows `TracingPlugin().plugins`: the test keeps its lines verbatim (deprecated, so it
/// compiles without warnings) until the README shows `configuration.plugins.append(.tracing())`.
@Suite struct ObservabilityReadmeExampleTests {
    @available(*, deprecated, message: "README.md's example still uses TracingPlugin().plugins; update both together")
    @Test func theReadmeExampleAssemblesMetricsTracingAndTheService() async throws {
        var configuration = ClientConfiguration()
        configuration.plugins.append(.httpMetrics(HTTPClientMetrics(templates: ["/users/{id}"])))  // swift-metrics
        configuration.plugins += TracingPlugin().plugins  // swift-distributed-tracing
        let transport = AsyncHTTPClientTransport()
        let client = try Client(transport: transport, configuration: configuration)
        let service = TransportService(transport)  // in your ServiceGroup: shuts the transport down

        #expect(client.chain.contains { $0.name.contains("Metrics") })
        #expect(client.chain.contains { $0.origin == .plugin(TracingPlugin.name) })
        _ = service
        try await transport.shutdown()
    }
}
