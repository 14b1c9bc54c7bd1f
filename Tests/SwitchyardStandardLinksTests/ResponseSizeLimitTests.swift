import HTTPTypes
import Switchyard
import Synchronization
import Testing

/// The size limit holds even over a transport that ignores `maxResponseBytes`.
@Suite struct ResponseSizeLimitTests {
    @Test func aTransportThatIgnoresTheLimitStillCannotExceedIt() async throws {
        let chunks = AsyncStream<[UInt8]> { continuation in
            for _ in 0..<10 { continuation.yield(Array(repeating: 7, count: 1000)) }
            continuation.finish()
        }
        let careless = ClosureTransport { _, _ in Response(HTTPResponse(status: .ok), body: HTTPBody(chunks)) }
        let client = Client(transport: careless, interceptors: [ResponseSizeLimitInterceptor(maxResponseBytes: 2500)])
        let response = try await client.stream(try Request(url: "http://example.com/big"))
        var received = 0
        do {
            for try await chunk in response.body { received += chunk.count }
            Issue.record("the body passed the limit")
        } catch {
            #expect(SwitchyardError.wrapping(error).kind == .responseTooLarge)
        }
        #expect(received == 2000, "the chunk that crosses the limit is not delivered")
    }

    @Test func aDeclaredLengthOverTheLimitFailsBeforeReading() async throws {
        let pulls = PullCount()
        let declared = ClosureTransport { _, _ in
            let body = HTTPBody(
                producing: {
                    {
                        pulls.count.add(1, ordering: .relaxed)
                        return ArraySlice(repeating: 1, count: 5000)
                    }
                }, length: .known(5000), replayability: .singleUse)
            return Response(HTTPResponse(status: .ok), body: body)
        }
        let client = Client(transport: declared, interceptors: [ResponseSizeLimitInterceptor(maxResponseBytes: 100)])
        let error = await #expect(throws: SwitchyardError.self) { _ = try await client.stream(try Request(url: "http://example.com/")) }
        #expect(error?.kind == .responseTooLarge)
        #expect(pulls.count.load(ordering: .relaxed) == 0, "the body was read before the declared length was refused")
    }

    /// How many chunks a body's producer was asked for.
    final class PullCount: Sendable {
        let count = Atomic<Int>(0)
    }
}
