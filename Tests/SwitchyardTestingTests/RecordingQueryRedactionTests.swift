import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTesting
import Testing

/// Credential query values in recorded exchange files, and replaying them.
@Suite(.timeLimit(.minutes(2))) struct RecordingQueryRedactionTests {
    /// Every file `recorder` wrote, as one text.
    private static func files(of recorder: RecordingTransport) throws -> String {
        try recorder.recordedFiles.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test func credentialQueryValuesAreMaskedInTheFileAndReplayForAnyValue() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = try RecordingTransport(wrapping: StubTransport.status(.ok, body: "signed"), directory: directory)
            let url = "https://files.test/a.bin?X-Amz-Credential=CRED-SECRET&X-Amz-Signature=SIG-SECRET&part=1"
            _ = try await Client(transport: recorder, interceptors: []).send(try Request(url: url))
            let text = try Self.files(of: recorder)
            #expect(!text.contains("CRED-SECRET") && !text.contains("SIG-SECRET"))
            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.request.path == "/a.bin?X-Amz-Credential=<redacted>&X-Amz-Signature=<redacted>&part=1")

            let replay = try ReplayingTransport(directory: directory)
            let fresh = "https://files.test/a.bin?X-Amz-Credential=OTHER&X-Amz-Signature=OTHER&part=1"
            #expect(try await Client(transport: replay, interceptors: []).send(try Request(url: fresh)).text == "signed")
            let wrongPart = "https://files.test/a.bin?X-Amz-Credential=OTHER&X-Amz-Signature=OTHER&part=2"
            let unmatched = await #expect(throws: SwitchyardError.self) {
                try await Client(transport: replay, interceptors: []).send(try Request(url: wrongPart))
            }
            #expect(unmatched?.kind == .invalidRequest)
            #expect(unmatched?.message.contains("No recorded exchange matches") == true)
        }
    }

    @Test func anEmptySetRecordsPathsAsTheyAreAndExtraNamesAreMasked() async throws {
        try await withTemporaryDirectory { directory in
            let plain = try RecordingTransport(
                wrapping: StubTransport.status(.ok), directory: directory.appendingPathComponent("plain"),
                configuration: .init(redactedQueryParameters: []))
            _ = try await Client(transport: plain, interceptors: []).send(try Request(url: "https://api.test/a?token=VISIBLE"))
            #expect(try Self.files(of: plain).contains("/a?token=VISIBLE"))

            let names = LoggingConfiguration.defaultRedactedQueryParameters.union(["pin"])
            let extra = try RecordingTransport(
                wrapping: StubTransport.status(.ok), directory: directory.appendingPathComponent("extra"),
                configuration: .init(redactedQueryParameters: names))
            _ = try await Client(transport: extra, interceptors: []).send(try Request(url: "https://api.test/a?pin=9876&token=HIDDEN"))
            let exchange = try #require(try RecordedExchange.loadAll(from: directory.appendingPathComponent("extra")).first)
            #expect(exchange.request.path == "/a?pin=<redacted>&token=<redacted>")
        }
    }
}
