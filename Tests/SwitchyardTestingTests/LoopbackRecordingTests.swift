import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A minimal buffered transport over `URLSession`, enough to record real loopback exchanges in this test
/// target (which does not depend on a shipped transport). Header order is not preserved by `URLSession`.
private let urlSessionTransport = ClosureTransport { request, _ in
    guard let scheme = request.head.scheme, let authority = request.head.authority, let path = request.head.path,
        let url = URL(string: "\(scheme)://\(authority)\(path)")
    else { throw SwitchyardError.invalidRequest("The test transport needs an absolute URL.") }
    var urlRequest = URLRequest(url: url)
    urlRequest.httpMethod = request.head.method.rawValue
    for field in request.head.headerFields { urlRequest.addValue(field.value, forHTTPHeaderField: field.name.rawName) }
    if let body = request.body { urlRequest.httpBody = Data(try await body.collect(upTo: 1 << 24)) }
    let (data, urlResponse) = try await URLSession.shared.data(for: urlRequest)
    guard let http = urlResponse as? HTTPURLResponse else { throw SwitchyardError.transportFailed("Not HTTP.") }
    var fields = HTTPFields()
    for (name, value) in http.allHeaderFields {
        guard let text = name as? String, let name = HTTPField.Name(text), let value = value as? String
        else { continue }
        fields.append(HTTPField(name: name, value: value))
    }
    return Response(status: HTTPResponse.Status(code: http.statusCode), headerFields: fields, body: Array(data))
}

@Suite(.timeLimit(.minutes(2))) struct LoopbackRecordingTests {
    @Test func recordsRealLoopbackExchangesAndReplaysThemWithoutTheServer() async throws {
        try await withTemporaryDirectory { directory in
            let server = try await LoopbackServer.start()
            let recorder = try RecordingTransport(wrapping: urlSessionTransport, directory: directory)
            let live = Client(transport: recorder, interceptors: [])
            let echo = try Request(
                method: .post, url: server.url("/echo"),
                headers: ["Content-Type": "application/json", "Authorization": "Bearer live-secret"],
                body: HTTPBody(#"{"name":"Ada"}"#))
            let bytes = try Request(url: server.url("/bytes/1000"))
            let recordedEcho: BufferedResponse
            let recordedBytes: BufferedResponse
            do {
                recordedEcho = try await live.send(echo)
                recordedBytes = try await live.send(bytes)
                try await server.shutdown()
            } catch {
                try? await server.shutdown()
                throw error
            }
            #expect(recordedEcho.head.status == .ok)
            #expect(recordedBytes.body == (0..<1000).map { UInt8($0 % 251) })

            let exchanges = try RecordedExchange.loadAll(from: directory)
            #expect(exchanges.map(\.request.target) == ["POST /echo", "GET /bytes/1000"])
            #expect(exchanges[0].request.body?.content == #"{"name":"Ada"}"#)
            #expect(exchanges[1].response?.body?.encoding == .base64)
            // Header values are redacted; bodies are recorded as they are (this echo body repeats the header).
            #expect(exchanges[0].request.headers.contains(RecordedHeader(name: "Authorization", value: "<redacted>")))
            #expect(try String(contentsOf: recorder.recordedFiles[1], encoding: .utf8).contains("live-secret") == false)

            // The server is gone: the replay answers on its own, with the same status, fields and bytes.
            let replay = Client(transport: try ReplayingTransport(directory: directory), interceptors: [])
            let replayedEcho = try await replay.send(echo)
            let replayedBytes = try await replay.send(bytes)
            #expect(replayedEcho.head == recordedEcho.head)
            #expect(replayedEcho.body == recordedEcho.body)
            #expect(replayedBytes.head == recordedBytes.head)
            #expect(replayedBytes.body == recordedBytes.body)
        }
    }
}
