import Switchyard
import SwitchyardStreams
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// 10,000 events of 4 KiB read slowly at first: the reader never holds more than the event it
/// reads, so resident memory does not grow by the stream's 40 MiB. Run alone (`InBoundedMemory`).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct EventStreamInBoundedMemoryTests {
    @Test(arguments: TransportKind.allCases)
    func tenThousandEventsAreReadInBoundedMemory(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            let total = 10_000
            let pad = 4096
            let request = try Request(url: server.url("/events/memory?total=\(total)&pad=\(pad)"))
            try #require(
                residentMemoryBytes() > 0, "resident memory is read from /proc/self/statm: without it the bound would hold trivially")
            var baseline: Int?
            var peakGrowth = 0
            var received = 0
            var wrong = 0
            for try await event in client.serverSentEvents(request) {
                received += 1
                if event.data.utf8.count != "event \(received)".utf8.count + 1 + pad || event.lastEventID != "\(received)" { wrong += 1 }
                // Measured from the first event on: by then the in-process server holds its whole response.
                let resident = residentMemoryBytes()
                if baseline == nil { baseline = resident }
                if received < 200 { try await Task.sleep(for: .milliseconds(1)) }
                if received % 100 == 0 { peakGrowth = max(peakGrowth, resident - (baseline ?? resident)) }
            }
            print("10,000 events of 4 KiB (\(kind)): resident memory grew by at most \(peakGrowth >> 10) KiB")
            #expect(received == total)
            #expect(wrong == 0)
            #expect(peakGrowth < 24 << 20, "resident memory grew by \(peakGrowth >> 20) MiB")
        }
    }
}
