import SwitchyardConformance
import Testing

// README.md, "Prove your own transport conforms": compiled only. This target is built by
// `swift build --build-tests` but linked into no test bundle, so the whole suite does not run a
// second time over curl (TransportConformanceTests runs it for every shipped transport).
@Suite(.serialized) struct MyTransportConformance {
    static let subject = ConformanceSubject(name: "MyTransport") { MyTransport() }

    @Test(arguments: TransportConformance.checks)
    func conforms(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.subject)
    }
}
