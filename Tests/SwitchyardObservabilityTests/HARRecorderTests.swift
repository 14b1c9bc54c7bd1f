import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// `HARRecorder` over in-memory transports: one HAR 1.2 entry per exchange, with sizes, timings,
/// failures and masked credentials. (Query-value masking in URLs is covered in `QueryRedactionTests`.)
@Suite struct HARRecorderTests {
    /// The recorder's JSON, parsed: the `log` object and its entries.
    private static func parse(_ recorder: HARRecorder) throws -> (log: [String: Any], entries: [[String: Any]]) {
        let object = try JSONSerialization.jsonObject(with: Data(recorder.json().utf8)) as? [String: Any]
        let log = try #require(object?["log"] as? [String: Any])
        return (log, try #require(log["entries"] as? [[String: Any]]))
    }

    private static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    private static func headers(_ object: Any?) -> [String: String] {
        let list = object as? [[String: String]] ?? []
        return Dictionary(list.map { ($0["name"] ?? "", $0["value"] ?? "") }, uniquingKeysWith: { $1 })
    }

    @Test func anEmptyRecorderIsAValidHARLog() throws {
        let recorder = HARRecorder()
        let (log, entries) = try Self.parse(recorder)
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "Switchyard")
        #expect(entries.isEmpty)
        #expect(recorder.count == 0)
    }

    @Test func anExchangeIsRecordedWithMethodURLStatusHeadersAndSizes() async throws {
        let recorder = HARRecorder()
        let transport = ClosureTransport { request, _ in
            _ = try await request.body?.collect(upTo: 1 << 20)
            return Response(
                status: .created, headerFields: [.contentType: "application/json", .setCookie: "sid=S-SECRET"],
                body: Array("{\"id\":7}".utf8))
        }
        let request = try Request(
            method: .post, url: "https://api.example.com:8443/items?page=2",
            headers: ["Authorization": "Bearer A-SECRET", "X-Trace": "t-1"], body: HTTPBody("hello"))
        let response = try await Client(transport: transport, interceptors: [recorder.interceptor]).send(request)
        #expect(response.text == "{\"id\":7}", "recording does not change the body")
        #expect(recorder.count == 1)
        #expect(!recorder.json().contains("SECRET"))

        let entry = try #require(try Self.parse(recorder).entries.first)
        let harRequest = try #require(entry["request"] as? [String: Any])
        #expect(harRequest["method"] as? String == "POST")
        #expect(harRequest["url"] as? String == "https://api.example.com:8443/items?page=2")
        #expect(harRequest["httpVersion"] as? String == "HTTP/1.1")
        #expect(Self.number(harRequest["bodySize"]) == 5)
        #expect(Self.headers(harRequest["headers"]) == ["Authorization": "<redacted>", "X-Trace": "t-1"])
        #expect(harRequest["queryString"] as? [[String: String]] == [["name": "page", "value": "2"]])

        let harResponse = try #require(entry["response"] as? [String: Any])
        #expect(Self.number(harResponse["status"]) == 201)
        #expect(harResponse["statusText"] as? String == "Created")
        #expect(Self.number(harResponse["bodySize"]) == 8)
        let content = try #require(harResponse["content"] as? [String: Any])
        #expect(Self.number(content["size"]) == 8)
        #expect(content["mimeType"] as? String == "application/json")
        #expect(Self.headers(harResponse["headers"]) == ["Content-Type": "application/json", "Set-Cookie": "<redacted>"])
        #expect(harResponse["_error"] == nil)
        #expect(entry["startedDateTime"] as? String != nil)
    }

    @Test func cumulativeTransportTimingsBecomeConsecutiveHARPhases() async throws {
        let recorder = HARRecorder()
        let transport = ClosureTransport { _, context in
            context.recordTimings { timings in
                timings.dns = .milliseconds(5)
                timings.connect = .milliseconds(12)
                timings.tls = .milliseconds(30)
                timings.firstByte = .milliseconds(50)
                timings.total = .milliseconds(80)
            }
            return Response(status: .ok)
        }
        _ = try await Client(transport: transport, interceptors: [recorder.interceptor])
            .send(try Request(url: "https://api.example.com/"))
        let entry = try #require(try Self.parse(recorder).entries.first)
        let timings = try #require(entry["timings"] as? [String: Any])
        let phases = ["blocked", "dns", "connect", "ssl", "send", "wait", "receive"].map { Self.number(timings[$0]) }
        #expect(phases == [-1, 5, 7, 18, 0, 20, 30])
        #expect(Self.number(entry["time"]) == 80)
    }

    @Test func phasesATransportDoesNotMeasureAreMinusOne() async throws {
        let recorder = HARRecorder()
        _ = try await Client(transport: StubTransport.status(.ok), interceptors: [recorder.interceptor])
            .send(try Request(url: "https://api.example.com/"))
        let entry = try #require(try Self.parse(recorder).entries.first)
        let timings = try #require(entry["timings"] as? [String: Any])
        for phase in ["dns", "connect", "ssl", "wait", "receive"] { #expect(Self.number(timings[phase]) == -1, "\(phase)") }
        #expect((Self.number(entry["time"]) ?? -1) >= 0)
    }

    @Test func aFailedExchangeIsRecordedWithItsErrorKind() async throws {
        let recorder = HARRecorder()
        let client = Client(
            transport: StubTransport.failing(SwitchyardError(.connectionFailed, "refused")),
            interceptors: [recorder.interceptor])
        let error = await failure(of: client, try Request(url: "https://api.example.com/down"))
        #expect(error?.kind == .connectionFailed)
        #expect(recorder.count == 1)
        let entry = try #require(try Self.parse(recorder).entries.first)
        let response = try #require(entry["response"] as? [String: Any])
        #expect(response["_error"] as? String == "connectionFailed")
        #expect(Self.number(response["status"]) == 0)
        #expect(response["statusText"] as? String == "connectionFailed")
    }

    @Test func aStreamedBodyIsRecordedOnceItHasBeenRead() async throws {
        let recorder = HARRecorder()
        let chunks = AsyncStream<[UInt8]> { continuation in
            for _ in 0..<4 { continuation.yield(Array(repeating: 1, count: 1000)) }
            continuation.finish()
        }
        let transport = ClosureTransport { _, _ in Response(HTTPResponse(status: .ok), body: HTTPBody(chunks)) }
        let streamed = try await Client(transport: transport, interceptors: [recorder.interceptor])
            .stream(try Request(url: "https://api.example.com/download"))
        #expect(recorder.count == 0, "the entry is complete only when the body is")
        var received = 0
        for try await chunk in streamed.body { received += chunk.count }
        #expect(received == 4000)
        #expect(recorder.count == 1)
        let response = try #require(try Self.parse(recorder).entries.first?["response"] as? [String: Any])
        #expect(Self.number(response["bodySize"]) == 4000)
    }

    @Test func anUploadOfUnknownLengthHasBodySizeZero() async throws {
        let recorder = HARRecorder()
        let body = HTTPBody(
            AsyncStream<[UInt8]> {
                $0.yield([1, 2, 3])
                $0.finish()
            })
        _ = try await Client(transport: StubTransport.status(.ok), interceptors: [recorder.interceptor])
            .send(try Request(method: .put, url: "https://api.example.com/up", body: body))
        let request = try #require(try Self.parse(recorder).entries.first?["request"] as? [String: Any])
        #expect(Self.number(request["bodySize"]) == 0)
    }

    @Test func entriesAreInStartOrderAndCallerNamedHeadersAreMasked() async throws {
        let recorder = HARRecorder(redactedHeaders: ["X-Api-Key"])
        let client = Client(transport: StubTransport.status(.ok), interceptors: [recorder.interceptor])
        for path in ["/first", "/second", "/third"] {
            _ = try await client.send(
                try Request(
                    url: "https://api.example.com\(path)",
                    headers: ["X-Api-Key": "K-SECRET", "Authorization": "visible-now"]))
        }
        let entries = try Self.parse(recorder).entries
        let urls = entries.compactMap { ($0["request"] as? [String: Any])?["url"] as? String }
        #expect(urls == ["/first", "/second", "/third"].map { "https://api.example.com\($0)" })
        let headers = Self.headers((entries.first?["request"] as? [String: Any])?["headers"])
        #expect(
            headers == ["X-Api-Key": "<redacted>", "Authorization": "visible-now"],
            "the caller's set replaces the defaults")
    }

    @Test func writeStoresTheSameJSON() async throws {
        let recorder = HARRecorder()
        _ = try await Client(transport: StubTransport.status(.ok), interceptors: [recorder.interceptor])
            .send(try Request(url: "https://api.example.com/"))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: url) }
        try recorder.write(to: url)
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == recorder.json())
    }
}
