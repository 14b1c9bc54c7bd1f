import Foundation
import SwitchyardTesting
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
            "cancel-mid-body": "data(for:) returns the whole body: there is no middle to cancel in",
            "response-too-large-streamed": "data(for:) buffers the body before the limit can see it"
        ],
        makeTransport: { LegacyStack(session: URLSession(configuration: .ephemeral)) }
    )

    @Test(arguments: TransportConformance.checks)
    func conforms(_ check: ConformanceCheck) async throws {
        try await check.verify(on: Self.subject)
    }
}
// end
