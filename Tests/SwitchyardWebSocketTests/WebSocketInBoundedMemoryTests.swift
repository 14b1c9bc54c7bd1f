import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardWebSocket
import Testing

/// Back-pressure: a reader slower than the network keeps the connection from reading ahead, so
/// resident memory does not grow by what the server has to send. Run alone (`InBoundedMemory`).
@Suite(.serialized, .timeLimit(.minutes(3)))
struct WebSocketInBoundedMemoryTests {
    @Test func aFloodReadSlowlyStaysInBoundedMemory() async throws {
        try await withLoopbackServer { server in
            let size = 256 << 10
            let count = 512  // 128 MiB
            let address = "ws://" + server.url("/ws/flood?key=flood&deflate=off&size=\(size)&count=\(count)").dropFirst("http://".count)
            let socket = try await WebSocketClient(options: WebSocketOptions(bufferedMessages: 8)).connect(url: String(address))
            let baseline = residentMemoryBytes()
            try #require(baseline > 0, "resident memory is read from /proc/self/statm: without it the bound would hold trivially")
            var peakGrowth = 0
            var received = 0
            var wrong = 0
            for try await message in socket {
                guard case .binary(let bytes) = message else { continue }
                if bytes.count != size || bytes.first != UInt8(truncatingIfNeeded: received) { wrong += 1 }
                received += 1
                // Slowly at first, so that an unbounded connection would run far ahead of the reader.
                if received < 64 { try await Task.sleep(for: .milliseconds(10)) }
                if received % 8 == 0 { peakGrowth = max(peakGrowth, residentMemoryBytes() - baseline) }
                if received == count { break }
            }
            await socket.close()
            print("128 MiB WebSocket flood, slowly read: resident memory grew by at most \(peakGrowth >> 10) KiB")
            #expect(received == count)
            #expect(wrong == 0)
            #expect(server.webSocketLog(key: "flood").contains("flooded:\(count)"))
            // Reading ahead would hold most of the 128 MiB; the bound is 8 messages plus socket buffers.
            #expect(peakGrowth < 32 << 20, "resident memory grew by \(peakGrowth >> 20) MiB")
        }
    }
}
