import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.serialized, .timeLimit(.minutes(2))) struct AsyncHTTPClientTransportScaleTests {
    @Test func aGzipBombIsRefusedInBoundedMemory() async throws {
        try await withAHCClient { client, server in
            let outcome = try await CompressionBombProbe.run(client: client, server: server)
            print(
                "1 GiB gzip bomb, 10 MB limit, AsyncHTTPClient: \(outcome.error?.kind.rawValue ?? "accepted") after"
                    + " \(outcome.receivedBytes) bytes; resident memory grew by at most \(outcome.peakGrowth >> 10) KiB")
            #expect(outcome.error?.kind == .responseTooLarge)
            #expect(outcome.receivedBytes <= 10_000_000)
            #expect(outcome.peakGrowth < 64 << 20, "resident memory grew by \(outcome.peakGrowth >> 20) MiB")
        }
    }
}
