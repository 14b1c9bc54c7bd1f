import Foundation
import Switchyard
import SwitchyardStreams
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// JSON lines read from a body as it streams.
@Suite(.timeLimit(.minutes(2)))
struct JSONLinesTests {
    struct Line: Decodable, Sendable, Equatable {
        let n: Int
    }

    private func values(_ chunks: [String], maximumLineBytes: Int = 1 << 20) async throws -> [Line] {
        let body = HTTPBody(
            AsyncStream { continuation in
                for chunk in chunks { continuation.yield(Array(chunk.utf8)) }
                continuation.finish()
            })
        var collected: [Line] = []
        for try await line in body.jsonLines(of: Line.self, maximumLineBytes: maximumLineBytes) { collected.append(line) }
        return collected
    }

    @Test func linesSplitAcrossChunksWithCRLFBlankLinesAndNoFinalNewline() async throws {
        let lines = try await values(["{\"n\":1}\r\n{\"n\"", ":2}\n\n   \n{\"n\":3}"])
        #expect(lines == [Line(n: 1), Line(n: 2), Line(n: 3)])
    }

    @Test func aLineThatIsNotJSONNamesItsLineNumber() async throws {
        let error = await #expect(throws: SwitchyardError.self) { try await values(["{\"n\":1}\n\n{\"n\":2}\nnot json\n"]) }
        #expect(error?.kind == .decoding)
        #expect(error?.message.contains("Line 4") == true, "blank lines count: \(error?.message ?? "")")
    }

    @Test func aLineOverTheLimitIsATypedError() async throws {
        let long = "{\"n\":1,\"pad\":\"" + String(repeating: "x", count: 300) + "\"}\n"
        let error = await #expect(throws: SwitchyardError.self) { try await values([long], maximumLineBytes: 100) }
        #expect(error?.kind == .eventTooLarge)
    }

    @Test(arguments: TransportKind.allCases)
    func aJSONLinesBodyFromTheServer(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: .standard) { client, server in
            let response = try await client.stream(try Request(url: server.url("/ndjson?count=1000")))
            var count = 0
            for try await line in response.body.jsonLines(of: Line.self) {
                count += 1
                if line.n != count { break }
            }
            #expect(count == 1_000)
            let bad = try await client.stream(try Request(url: server.url("/ndjson?count=5&bad_line=3")))
            let error = await #expect(throws: SwitchyardError.self) { for try await _ in bad.body.jsonLines(of: Line.self) {} }
            #expect(error?.message.contains("Line 3") == true)
        }
    }

    /// Without status validation in the chain, an error whose body happens to be JSON lines (or is
    /// empty) must not read as values (or as an empty success): the response's lines judge the status.
    @Test(arguments: TransportKind.allCases)
    func anErrorStatusIsNeverReadAsLinesWhateverTheChain(_ kind: TransportKind) async throws {
        try await withLoopbackClient(kind, configuration: ClientConfiguration()) { client, server in
            for body in ["{\"n\":1}\n{\"n\":2}\n", ""] {
                var request = try Request(method: .post, url: server.url("/echo/body?status=500"), body: HTTPBody(Array(body.utf8)))
                request.head.headerFields[.contentType] = "application/x-ndjson"
                let response = try await client.stream(request)
                #expect(response.head.status.code == 500)
                var read: [Line] = []
                let error = await #expect(throws: SwitchyardError.self) {
                    for try await line in response.jsonLines(of: Line.self) { read.append(line) }
                }
                #expect(error?.kind == .httpStatus)
                #expect(error?.message.contains("500") == true, "\(error?.message ?? "")")
                #expect(error?.response?.status.code == 500)
                #expect(read.isEmpty, "body \(body.debugDescription)")
            }
            let ok = try await client.stream(try Request(url: server.url("/ndjson?count=2")))
            var count = 0
            for try await _ in ok.jsonLines(of: Line.self) { count += 1 }
            #expect(count == 2)
        }
    }
}
