import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer

/// Starts a loopback server and a curl client, runs `body`, and shuts both down.
func withCurlClient<T>(
    interceptors: [any Interceptor] = [],
    configuration: CurlTransport.Configuration = .init(),
    events: EventBus? = nil,
    _ body: (Client, LoopbackServer) async throws -> T
) async throws -> T {
    let server = try await LoopbackServer.start()
    let client = Client(transport: CurlTransport(configuration: configuration), interceptors: interceptors, events: events)
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

/// The number of threads of this process, from /proc/self/status.
func processThreadCount() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
    }
    return 0
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
