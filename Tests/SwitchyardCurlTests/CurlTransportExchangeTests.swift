import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

@Suite(.timeLimit(.minutes(2))) struct CurlTransportExchangeTests {
    @Test func getAndDeleteWithoutBodySendNoBodyHeaders() async throws {
        try await withCurlClient { client, server in
            for method in [HTTPRequest.Method.get, .delete] {
                let echo = try EchoReport(try await client.send(try Request(method: method, url: server.url("/echo"))))
                #expect(echo.method == method.rawValue)
                #expect(echo.bodyLength == 0)
                #expect(echo.values(of: "Content-Type").isEmpty)
                #expect(echo.values(of: "Accept").isEmpty)
                #expect(echo.values(of: "Expect").isEmpty)
            }
        }
    }

    /// A body that ended before its head was read is handed out whole (replayable); one still
    /// arriving streams. Which one a small response gets depends on timing, so both are checked for
    /// their bytes, and a whole one is read twice.
    @Test func smallBodiesAreBufferedWhenCompleteAndLargeOnesStream() async throws {
        try await withCurlClient { client, server in
            for _ in 0..<20 {
                let small = try await client.stream(try Request(url: server.url("/small")))
                #expect(try await small.body.collect(upTo: 100) == Array("hello, world\n".utf8))
                if small.body.replayability == .replayable {
                    #expect(try await small.body.collect(upTo: 100) == Array("hello, world\n".utf8))
                }
            }
            let large = try await client.stream(try Request(url: server.url("/bytes/4194304")))
            #expect(large.body.replayability == .singleUse)
            var count = 0
            for try await chunk in large.body { count += chunk.count }
            #expect(count == 4_194_304)
        }
    }
}
