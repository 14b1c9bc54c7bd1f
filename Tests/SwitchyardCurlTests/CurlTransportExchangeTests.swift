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

}
