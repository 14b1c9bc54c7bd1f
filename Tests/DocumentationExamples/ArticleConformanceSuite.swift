import Foundation
import Switchyard
import SwitchyardConformance
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Sources/Switchyard/Switchyard.docc/WriteOrWrapATransport.md, the whole suite over a wrapped
// stack: compiled only (a wrapped URLSession that buffers every body fails the streaming checks
// it declares, and running the suite once more would add minutes to every test run).

// doc:conformance-suite
@Suite(.serialized) struct LegacyStackConformance {
    static let subject = ConformanceSubject(
        name: "legacy",
        limitations: [
            "download-64mib-streamed": ConformanceLimitation(
                "data(for:) returns the whole body at once: there is no back-pressure",
                failsWith: .expectation(containing: "no back-pressure")),
            "response-too-large-streamed": ConformanceLimitation(
                "data(for:) waits for the whole body before the size limit can see it",
                failsWith: .error(.timeout))
        ],
        makeTransport: { LegacyStack(session: URLSession(configuration: .ephemeral)) }
    )

    @Test(arguments: TransportConformance.checks)
    func conforms(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.subject)
    }
}
// end
