import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

// Sources/Switchyard/Switchyard.docc/GettingStarted.md: the first request is compiled (it names
// api.example.com); the rest runs against the embedded loopback server.
func gettingStartedFirstRequest() async throws {
    // doc:first-request
    let client = Client(transport: CurlTransport())
    let response = try await client.send(try Request(url: "https://api.example.com/users/42"))
    print(response.head.status, response.text)
    // end
}

func gettingStartedConfiguredClient() throws -> Client {
    // doc:configured-client
    var configuration = ClientConfiguration()  // events, redirects and retry are on
    configuration.validation = StatusValidation(accepted: 200..<300)  // other statuses throw .httpStatus
    configuration.maxResponseBytes = 5 << 20  // 5 MiB, counted while the body streams
    let client = try Client(transport: CurlTransport(), configuration: configuration)
    // end
    return client
}

func gettingStartedPost(client: Client, baseURL: String) async throws -> String {
    // doc:post
    var request = try Request(
        method: .post, url: baseURL + "/echo/body",
        headers: ["Content-Type": "application/json"],
        body: HTTPBody(Array(#"{"text": "hello"}"#.utf8)))
    request.options.timeout = .seconds(60)  // one deadline for the whole call, retries included
    let response = try await client.send(request)
    // end
    return response.text
}

func gettingStartedErrors(client: Client, baseURL: String) async throws -> String {
    // doc:errors
    do {
        let response = try await client.send(try Request(url: baseURL + "/status/404"))
        return response.text
    } catch {
        switch error.kind {  // error is a SwitchyardError
        case .httpStatus: return "refused: \(error.message)"
        case .timeout, .connectionFailed: return "offline? \(error.message)"
        default: return "failed: \(error.message)"
        }
    }
    // end
}

func gettingStartedStream(client: Client, baseURL: String) async throws -> Int {
    // doc:stream
    let streamed = try await client.stream(try Request(url: baseURL + "/bytes/1000000"))
    var received = 0
    for try await chunk in streamed.body {  // chunks as they arrive, with back-pressure
        received += chunk.count
    }
    // end
    return received
}

@Suite struct GettingStartedExamples {
    @Test func theExamplesRunAgainstTheLoopbackServer() async throws {
        try await withLoopbackServer { server in
            let client = try gettingStartedConfiguredClient()
            #expect(try await gettingStartedPost(client: client, baseURL: server.baseURL) == #"{"text": "hello"}"#)
            #expect(try await gettingStartedErrors(client: client, baseURL: server.baseURL).hasPrefix("refused"))
            #expect(try await gettingStartedStream(client: client, baseURL: server.baseURL) == 1_000_000)
        }
    }
}
