import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import Testing

/// The conformance suite on AsyncHTTPClient, with a transport that owns its `HTTPClient`.
@Suite("Conformance: AsyncHTTPClient", .serialized, .timeLimit(.minutes(5)))
struct AsyncHTTPClientConformanceTests {
    static let ahc = ConformanceSubject(
        name: "AsyncHTTPClient",
        limitations: [
            "interim-flood": ConformanceLimitation(
                "AsyncHTTPClient consumes interim (1xx) responses inside its connection state machine without counting them or telling the caller; 100,000 of them are skipped and the final response is delivered whole",
                failsWith: .expectation(containing: "expected protocolViolation, but it succeeded")),
            "connection-phases": ConformanceLimitation(
                "AsyncHTTPClient's public API does not tell when name resolution ends: its connection initializers run once the connection is established",
                failsWith: .expectation(containing: "connection fields missing: [dns]"))
        ],
        crashingLimitations: [
            "status-below-100":
                "AsyncHTTPClient 1.37 traps (preconditionFailure in HTTPRequestStateMachine.receivedHTTPResponseBodyPart/End) on a status code below 100: it drops the head as if it were interim, then receives its body. YardPlatformTrapTests (YardTests) pins it in a child process"
        ],
        makeTransportWith: { AsyncHTTPClientTransport(configuration: .init($0)) },
        shutdown: { transport in try await (transport as? AsyncHTTPClientTransport)?.shutdown() }
    )

    @Test(arguments: TransportConformance.checks)
    func asyncHTTPClient(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.ahc)
    }
}

extension AsyncHTTPClientTransport.Configuration {
    /// The default configuration with a conformance check's settings; one connection per host also
    /// means HTTP/1.1, so that requests queue rather than share a multiplexed connection.
    init(_ settings: ConformanceTransportSettings) {
        self.init()
        if let maxConnectionsPerHost = settings.maxConnectionsPerHost {
            self.maxConnectionsPerHost = maxConnectionsPerHost
            httpVersion = .http1_1
        }
        if let idleTimeout = settings.idleTimeout { self.idleTimeout = idleTimeout }
    }
}
