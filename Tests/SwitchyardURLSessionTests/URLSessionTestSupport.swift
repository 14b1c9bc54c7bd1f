import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardURLSession

/// Starts a loopback server and a URLSession client, runs `body`, and shuts both down.
func withURLSessionClient<T>(
    transport: URLSessionTransport = URLSessionTransport(),
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start()
    let client = Client(transport: transport)
    do {
        let result = try await body(client, server)
        try await server.shutdown()
        return result
    } catch {
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

/// The process's resident memory in bytes, from /proc/self/statm.
func residentMemoryBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Lowercase hex of a digest.
func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

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
