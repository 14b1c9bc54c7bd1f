import HTTPTypes
import Switchyard

extension TransportConformance {
    static let concurrencyChecks: [ConformanceCheck] = [
        ConformanceCheck("concurrent-requests", .concurrency, "256 requests from 64 tasks on one transport each get their own response") {
            h in
            let client = h.client
            let requests = try (0..<256).map { try h.request(.get, "/bytes/\($0 * 97)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<64 {
                    group.addTask {
                        for index in stride(from: lane, to: requests.count, by: 64) {
                            let response = try await client.send(requests[index])
                            try expect(
                                response.body == PatternBody.bytes(count: index * 97),
                                "request \(index) got \(response.body.count) bytes instead of its own \(index * 97)")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    ]
}
