// AsyncHTTPClient used directly: the reference for Switchyard's curl transport with its standard chain
// and for the AsyncHTTPClient transport. Configured as a careful user would for this load: one pool
// connection per task (the default soft limit is 8), HTTP/1.1 (the server is plain HTTP), no
// decompression, NIO's shared event-loop group (one loop per core).
import AsyncHTTPClient
import LoadShape

let arguments = LoadArguments.fromCommandLine()
var configuration = HTTPClient.Configuration()
configuration.connectionPool = .init(
    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, arguments.concurrency))
configuration.httpVersion = .http1Only
configuration.decompression = .disabled
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

await measure(client: "asynchttpclient", arguments) {
    let response = try await client.execute(HTTPClientRequest(url: arguments.url), timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 64 << 20)
    guard response.status == .ok else { throw HTTPClientError.invalidURL }
    return body.readableBytes
}
try await client.shutdown()
