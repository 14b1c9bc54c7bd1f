import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAsyncHTTPClient
@testable import SwitchyardTestServer

/// Starts a loopback server and a transport that owns its `HTTPClient`, runs `body`, and shuts both down.
func withAHCClient<T>(
    configuration: AsyncHTTPClientTransport.Configuration = .init(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start()
    let transport = AsyncHTTPClientTransport(configuration: configuration)
    let client = Client(transport: transport)
    do {
        let result = try await body(client, server)
        try await transport.shutdown()
        try await server.shutdown()
        return result
    } catch {
        try? await transport.shutdown()
        try? await server.shutdown()
        throw error
    }
}

/// Sends `request` and returns the error it failed with, or `nil` if it succeeded.
func failure(of client: Client, _ request: Request) async -> SwitchyardError? {
    do {
        _ = try await client.send(request)
        return nil
    } catch {
        return error
    }
}

/// The deterministic byte pattern of the server's `/bytes/{n}` route.
func expectedPatternByte(at index: Int) -> UInt8 { UInt8(index % 251) }

/// The lower-case hex SHA-256 of `bytes` (the server's own implementation, so both sides agree).
func sha256Hex(_ bytes: some Sequence<UInt8>) -> String { SHA256.hexDigest(of: bytes) }

/// The process's resident memory in bytes, from /proc/self/statm.
func residentMemoryBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Polls `condition` every 5 ms until it holds or `timeout` passes (long: a bound for a busy machine,
/// not an expectation of speed); returns whether it held.
func eventually(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
    let end = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < end else { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Parses the JSON the server's `/echo` route returns.
struct EchoReport: Decodable {
    let method: String
    let uri: String
    let headers: [[String]]
    let body_length: Int
    let body_sha256: String

    init(_ response: BufferedResponse) throws {
        self = try JSONDecoder().decode(EchoReport.self, from: Data(response.body))
    }

    func values(of name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }
}
