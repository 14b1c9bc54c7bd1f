import Switchyard
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// The timing statistics per endpoint hold the phases the transport reported for each call.
@Suite(.timeLimit(.minutes(2))) struct TimingStatsPhasesLoopbackTests {
    /// One call over TLS on curl: each connection phase of the endpoint is the call's own value
    /// (microseconds; the histogram keeps three significant digits, so a value may read up to a
    /// 1/1024 part higher).
    @Test func anEndpointsPhasesAreItsCallsOwnOverTLS() async throws {
        let certificates = try TestCertificates.generate()
        defer { certificates.remove() }
        try await withLoopbackServer(.init(tls: .init(identity: certificates.server))) { server in
            let stats = TimingStats()
            var configuration = ClientConfiguration()
            configuration.plugins.append(.timingStats(stats))
            let trust = TLSOptions(trustRoots: .only(certificateFiles: [certificates.ca.certificateFile]))
            let transport = CurlTransport(configuration: .init(tls: trust))
            let response: BufferedResponse
            do {
                response = try await Client(transport: transport, configuration: configuration)
                    .send(try Request(url: server.url("/small")))
            } catch {
                try? await transport.shutdown()
                throw error
            }
            try await transport.shutdown()

            let endpoint = try #require(stats.snapshot().endpoints.first { $0.path == "/small" })
            #expect(endpoint.count == 1)
            let timings = response.timings
            let transfer = try #require(timings.total) - (try #require(timings.firstByte))
            let reported: [(String, Duration?)] = [
                ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls), ("ttfb", timings.firstByte),
                ("transfer", transfer)
            ]
            for (name, value) in reported {
                let microseconds = UInt64(max(1, (try #require(value, "\(name)").milliseconds * 1_000).rounded()))
                let phase = try #require(endpoint.phases.first { $0.name == name }, "\(name)")
                #expect(phase.count == 1)
                #expect(
                    phase.max >= microseconds && phase.max - microseconds <= microseconds / 1_024 + 1,
                    "\(name): \(phase.max) µs in the statistics, \(microseconds) µs in the response")
            }
        }
    }
}
