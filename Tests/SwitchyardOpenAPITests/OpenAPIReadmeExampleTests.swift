import Foundation
import OpenAPIRuntime
import Switchyard
import SwitchyardCurl
import SwitchyardOpenAPI
import Testing

/// The README's OpenAPI example, compiled and built (it sends nothing).
@Suite struct OpenAPIReadmeExampleTests {
    @Test func theReadmeExampleBuildsAGeneratedClientOverTheChain() async throws {
        let switchyard = try Switchyard.Client(transport: CurlTransport(), configuration: ClientConfiguration())
        let api = Client(serverURL: try Servers.Server1.url(), transport: SwitchyardClientTransport(client: switchyard))
        _ = api
        #expect(try Servers.Server1.url().absoluteString == "https://api.example.com/v1")
    }
}
