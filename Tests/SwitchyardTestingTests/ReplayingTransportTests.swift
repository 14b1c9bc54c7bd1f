import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// Records `requests` through `wrapped` into `directory`, returning what the caller saw.
private func record(
    _ requests: [Request],
    through wrapped: any Transport,
    into directory: URL,
    configuration: RecordingTransport.Configuration = .init()
) async throws -> [BufferedResponse] {
    let client = Client(
        transport: try RecordingTransport(
            wrapping: wrapped, directory: directory,
            configuration: configuration),
        interceptors: [])
    var responses: [BufferedResponse] = []
    for request in requests { responses.append(try await client.send(request)) }
    return responses
}

@Suite(.timeLimit(.minutes(2))) struct ReplayingTransportTests {
    @Test func replaysRecordedResponsesWithIdenticalHeadsAndBytes() async throws {
        try await withTemporaryDirectory { directory in
            let api = RoutedStubTransport()
            api.on(.get, "/text", reply: .text("hello, world\n", headers: [.xTrace: "1", .xMixedCase: "yes"]))
            api.on(.get, "/binary", reply: .bytes(binaryBytes, headers: [.contentType: "application/octet-stream"]))
            api.on(
                .post, "/items",
                reply: .custom { request, _ in
                    var headers = HTTPFields()
                    headers.append(HTTPField(name: .setCookie, value: "a=1"))
                    headers.append(HTTPField(name: .setCookie, value: "b=2"))
                    let body = try await request.body?.collect(upTo: 1 << 20) ?? []
                    return Response(HTTPResponse(status: .created, headerFields: headers), body: HTTPBody(body))
                })
            api.on(
                .get, "/stream",
                reply: .custom { _, _ in
                    Response(HTTPResponse(status: .ok), body: CountingChunks([[1, 2], [3], [0xFF, 0xFE]]).body())
                })
            let requests = [
                try Request(url: "http://127.0.0.1:1111/text"),
                try Request(url: "http://127.0.0.1:1111/binary"),
                try Request(method: .post, url: "http://127.0.0.1:1111/items", body: HTTPBody("{\"n\":1}")),
                try Request(url: "http://127.0.0.1:1111/stream")
            ]
            let noRedaction = RecordingTransport.Configuration(redactedHeaderNames: [])
            let originals = try await record(requests, through: api, into: directory, configuration: noRedaction)

            let replay = try ReplayingTransport(directory: directory)
            let client = Client(transport: replay, interceptors: [])
            for (request, original) in zip(requests, originals) {
                var moved = request
                moved.head.authority = "127.0.0.1:2222"  // another server port: still matches
                let replayed = try await client.send(moved)
                #expect(replayed.head == original.head, "\(request.head.path ?? "")")
                #expect(replayed.body == original.body, "\(request.head.path ?? "")")
            }
            #expect(replay.callCount == 4)
            #expect(api.callCount == 4)
        }
    }

    @Test func servesRepeatedRequestsInRecordedOrderThenRepeatsTheLast() async throws {
        try await withTemporaryDirectory { directory in
            let api = RoutedStubTransport()
            api.on(.get, "/poll", replies: [.status(.serviceUnavailable), .text("one"), .text("two")])
            let poll = try Request(url: "http://api.test/poll")
            _ = try await record([poll, poll, poll], through: api, into: directory)

            let client = Client(transport: try ReplayingTransport(directory: directory), interceptors: [])
            var seen: [String] = []
            for _ in 0..<5 {
                let response = try await client.send(poll)
                seen.append("\(response.head.status.code) \(response.text)")
            }
            #expect(seen == ["503 ", "200 one", "200 two", "200 two", "200 two"])
        }
    }

    @Test func failsWhenExhaustedIfAskedTo() async throws {
        try await withTemporaryDirectory { directory in
            let request = try Request(url: "http://api.test/once")
            _ = try await record([request], through: StubTransport.status(.ok, body: "x"), into: directory)
            let client = Client(transport: try ReplayingTransport(directory: directory, whenExhausted: .fail), interceptors: [])
            #expect(try await client.send(request).text == "x")
            let error = await failure(of: client, request)
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("GET /once") == true)
        }
    }

    @Test func anUnmatchedRequestListsWhatIsRecorded() async throws {
        try await withTemporaryDirectory { directory in
            let get = try Request(url: "http://api.test/users/1")
            let post = try Request(method: .post, url: "http://api.test/users")
            _ = try await record([get, get, post], through: StubTransport.status(.ok), into: directory)

            let client = Client(transport: try ReplayingTransport(directory: directory), interceptors: [])
            let error = try #require(await failure(of: client, try Request(url: "http://api.test/users/1?x=1")))
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("GET /users/1?x=1"))
            #expect(error.message.contains("GET /users/1 (2×)"))
            #expect(error.message.contains("POST /users (1×)"))
            #expect(error.message.contains(directory.path))
            #expect(
                await failure(of: client, try Request(method: .delete, url: "http://api.test/users"))?.kind
                    == .invalidRequest)
        }
    }

    @Test func replaysRecordedErrorsAsTheSameKind() async throws {
        try await withTemporaryDirectory { directory in
            let api = RoutedStubTransport()
            api.on(.get, "/refused", reply: .failure(.connectionFailed("refused by api.test")))
            api.on(.get, "/slow", reply: .failure(.timedOut()))
            api.on(
                .get, "/cut",
                reply: .custom { _, _ in
                    Response(
                        HTTPResponse(status: .ok),
                        body: HTTPBody(FailingChunks(bytes: [1, 2, 3], error: .protocolViolation("short body"))))
                })
            let client = Client(transport: try RecordingTransport(wrapping: api, directory: directory), interceptors: [])
            for path in ["/refused", "/slow", "/cut"] {
                _ = await failure(of: client, try Request(url: "http://api.test\(path)"))
            }

            let replay = Client(transport: try ReplayingTransport(directory: directory), interceptors: [])
            let refused = await failure(of: replay, try Request(url: "http://api.test/refused"))
            #expect(refused?.kind == .connectionFailed)
            #expect(refused?.message == "refused by api.test")
            #expect(await failure(of: replay, try Request(url: "http://api.test/slow"))?.kind == .timeout)

            let cut = try await replay.stream(Request(url: "http://api.test/cut"))
            var received: [UInt8] = []
            let error = await #expect(throws: SwitchyardError.self) {
                for try await chunk in cut.body { received += chunk }
            }
            #expect(received == [1, 2, 3])
            #expect(error?.kind == .protocolViolation)
        }
    }

    @Test func replaysFromExchangesBuiltInCode() async throws {
        let exchange = RecordedExchange(
            sequence: 1,
            request: RecordedRequest(
                method: "GET", scheme: "https", authority: "api.test", path: "/hi",
                headers: [], body: nil),
            response: RecordedResponse(
                status: 200, reason: "OK",
                headers: [RecordedHeader(name: "Content-Type", value: "text/plain")],
                body: RecordedBody(bytes: Array("hi".utf8))),
            outcome: .completed
        )
        let replay = ReplayingTransport(exchanges: [exchange])
        let response = try await Client(transport: replay, interceptors: []).send(Request(url: "https://elsewhere.test/hi"))
        #expect(response.text == "hi")
        #expect(response.head.headerFields[.contentType] == "text/plain")
    }

    @Test func aCorruptFileIsNamedInTheError() async throws {
        try await withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data("not json".utf8).write(to: directory.appendingPathComponent("0001-GET-x.json"))
            let error = #expect(throws: SwitchyardError.self) { try ReplayingTransport(directory: directory) }
            #expect(error?.kind == .decoding)
            #expect(error?.message.contains("0001-GET-x.json") == true)
        }
    }
}
