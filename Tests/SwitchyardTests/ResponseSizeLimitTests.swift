import HTTPTypes
import Switchyard
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
        let declared = ClosureTransport { _, _ in Response(status: .ok, body: Array(repeating: 1, count: 5000)) }
        let client = Client(transport: declared, interceptors: [ResponseSizeLimitInterceptor(maxResponseBytes: 100)])
        await #expect(throws: SwitchyardError.self) { _ = try await client.stream(try Request(url: "http://example.com/")) }
    }
}
