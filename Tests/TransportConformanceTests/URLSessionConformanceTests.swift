import Switchyard
import SwitchyardTesting
import SwitchyardURLSession
import Testing

/// The conformance suite on URLSession (FoundationNetworking on Linux).
@Suite("Conformance: URLSession", .serialized, .timeLimit(.minutes(5)))
struct URLSessionConformanceTests {
    static let urlSession = ConformanceSubject(name: "URLSession") { URLSessionTransport() }

    @Test(arguments: TransportConformance.checks)
    func urlSession(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.urlSession)
    }
}
