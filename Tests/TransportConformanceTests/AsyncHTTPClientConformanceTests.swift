import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTesting
import Testing

/// The conformance suite on AsyncHTTPClient, with a transport that owns its `HTTPClient`.
@Suite("Conformance: AsyncHTTPClient", .serialized, .timeLimit(.minutes(5)))
struct AsyncHTTPClientConformanceTests {
    static let ahc = ConformanceSubject(
        name: "AsyncHTTPClient",
        makeTransport: { AsyncHTTPClientTransport() },
        shutdown: { transport in try await (transport as? AsyncHTTPClientTransport)?.shutdown() }
    )

    @Test(arguments: TransportConformance.checks)
    func asyncHTTPClient(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.ahc)
    }
}
