import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession

/// Starts a loopback server and an ``APIClient`` over `kind` with the built-in chain from
/// `configuration`, runs `body`, and shuts both down.
func withAPI<T>(
    _ kind: TransportKind = .curl, configuration: ClientConfiguration = ClientConfiguration(),
    parameters: [ParameterRule] = [], envelopes: [(scope: RequestScope, envelope: Envelope)] = [],
    _ body: (APIClient, LoopbackServer) async throws -> T
) async throws -> T {
    try await withLoopbackServer { server in
        let transport = kind.make()
        let client = try Client(transport: transport, configuration: configuration)
        let api = try APIClient(client: client, baseURL: server.baseURL, parameters: parameters, envelopes: envelopes)
        do {
            let result = try await body(api, server)
            try await transport.shutdown()
            return result
        } catch {
            try? await transport.shutdown()
            throw error
        }
    }
}

/// An endpoint the server answers with `json` (via `/echo/body`, which returns the request body
/// with its content type).
func echoing<Value: Decodable & Sendable>(
    _ type: Value.Type, _ json: String, at path: JSONPath = JSONPath(segments: []), contentType: String = "application/json"
) -> Endpoint<Value> {
    Endpoint<Value>(.post, "/echo/body", at: path).body(.bytes(Array(json.utf8), contentType: contentType))
}
