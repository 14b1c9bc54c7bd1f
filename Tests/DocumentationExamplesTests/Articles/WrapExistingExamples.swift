import AsyncHTTPClient
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Sources/Switchyard/Switchyard.docc/WrapAnExistingClient.md, run against the loopback server.

func wrapURLSession(appSession: URLSession) throws -> Client {
    // doc:wrap-urlsession
    let transport = URLSessionTransport(wrapping: appSession)  // its configuration's headers, proxy, timeouts apply
    let client = try Client(transport: transport, configuration: ClientConfiguration())
    // end
    return client
}

func wrapAsyncHTTPClient(baseURL: String) async throws -> String {
    // doc:wrap-ahc
    var httpConfiguration = AsyncHTTPClientTransport.Configuration().httpClientConfiguration
    httpConfiguration.redirectConfiguration = .disallow  // the chain follows redirects, not AsyncHTTPClient
    let httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
    let client = try Client(transport: AsyncHTTPClientTransport(wrapping: httpClient), configuration: ClientConfiguration())
    let response = try await client.send(try Request(url: baseURL + "/redirect/2"))
    try await httpClient.shutdown()  // the app owns it: the transport never shuts it down
    // end
    return response.text
}

@Suite struct WrapExistingExamples {
    @Test func bothWrappedClientsFollowTheChainsRedirects() async throws {
        try await withLoopbackServer { server in
            let session = URLSession(configuration: .ephemeral)
            let overSession = try wrapURLSession(appSession: session)
            #expect(try await overSession.send(try Request(url: server.url("/redirect/2"))).text == "redirected\n")
            #expect(try await wrapAsyncHTTPClient(baseURL: server.baseURL) == "redirected\n")
        }
    }
}
