import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestSupport
import SwitchyardTesting
import Testing

/// A wrapped transport that answers with a streamed body and remembers the request body it read.
private func streamingStub(_ chunks: CountingChunks, headers: HTTPFields = [:]) -> StubTransport {
    StubTransport { _, _ in
        Response(HTTPResponse(status: .ok, headerFields: headers), body: chunks.body())
    }
}

@Suite(.timeLimit(.minutes(2))) struct RecordingTransportTests {
    @Test func recordsAStreamedResponseWhileTheCallerReadsIt() async throws {
        try await withTemporaryDirectory { directory in
            let chunks = CountingChunks([Array("first ".utf8), Array("second ".utf8), Array("third".utf8)])
            let recorder = try RecordingTransport(wrapping: streamingStub(chunks), directory: directory)
            let response = try await Client(transport: recorder, interceptors: []).stream(Request(url: "http://api.test/stream"))

            // Nothing was read ahead and nothing is written before the caller reads.
            #expect(chunks.pulledCount == 0)
            #expect(recorder.recordedFiles.isEmpty)

            var received: [UInt8] = []
            for try await chunk in response.body {
                received += chunk
                if chunks.pulledCount < chunks.chunks.count { #expect(recorder.recordedFiles.isEmpty) }
            }
            #expect(received == chunks.allBytes)
            #expect(recorder.recordedFiles.count == 1)

            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.outcome == .completed)
            #expect(try exchange.response?.body?.decodedBytes() == chunks.allBytes)
            #expect(exchange.response?.body?.encoding == .utf8)
            #expect(exchange.response?.body?.complete == true)
        }
    }

    @Test func recordsHeadsWithHeaderOrderRepeatsAndCase() async throws {
        try await withTemporaryDirectory { directory in
            var headers = HTTPFields()
            headers.append(HTTPField(name: .xMixedCase, value: "yes"))
            headers.append(HTTPField(name: .xTrace, value: "1"))
            headers.append(HTTPField(name: .xTrace, value: "2"))
            headers.append(HTTPField(name: .contentType, value: "text/plain"))
            let wrapped = StubTransport { [headers] _, _ in
                Response(
                    HTTPResponse(status: .init(code: 299, reasonPhrase: "Fine Indeed"), headerFields: headers),
                    body: HTTPBody("ok"))
            }
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            let request = try Request(
                method: .put, url: "https://api.test:8443/items/7?v=2",
                headers: ["Accept": "application/json", "X-Trace": "a", "x-trace": "b"])
            _ = try await Client(transport: recorder, interceptors: []).send(request)

            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.sequence == 1)
            #expect(exchange.request.method == "PUT")
            #expect(exchange.request.scheme == "https")
            #expect(exchange.request.authority == "api.test:8443")
            #expect(exchange.request.path == "/items/7?v=2")
            #expect(
                exchange.request.headers == [
                    RecordedHeader(name: "Accept", value: "application/json"),
                    RecordedHeader(name: "X-Trace", value: "a"),
                    RecordedHeader(name: "x-trace", value: "b")
                ])
            #expect(exchange.request.body == nil)
            let response = try #require(exchange.response)
            #expect(response.status == 299)
            #expect(response.reason == "Fine Indeed")
            #expect(response.headers.map(\.name) == ["X-MiXeD-CaSe", "X-Trace", "X-Trace", "Content-Type"])
            #expect(response.headers.map(\.value) == ["yes", "1", "2", "text/plain"])
        }
    }

    @Test func redactsSecretHeaderValuesInTheFileButNotOnTheWire() async throws {
        try await withTemporaryDirectory { directory in
            let wrapped = StubTransport { _, _ in
                var headers = HTTPFields()
                headers.append(HTTPField(name: .setCookie, value: "session=server-secret"))
                headers.append(HTTPField(name: .contentType, value: "text/plain"))
                return Response(HTTPResponse(status: .ok, headerFields: headers), body: HTTPBody("body"))
            }
            let apiKey = HTTPField.Name("X-Api-Key")!
            var configuration = RecordingTransport.Configuration()
            configuration.redactedHeaderNames.insert(apiKey)
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory, configuration: configuration)
            let request = try Request(
                url: "https://api.test/me",
                headers: [
                    "Authorization": "Bearer token-secret", "Cookie": "id=cookie-secret",
                    "Proxy-Authorization": "Basic proxy-secret", "X-Api-Key": "key-secret", "Accept": "*/*"
                ])
            let response = try await Client(transport: recorder, interceptors: []).send(request)

            #expect(wrapped.requests.first?.head.headerFields[.authorization] == "Bearer token-secret")
            #expect(response.head.headerFields[.setCookie] == "session=server-secret")
            let file = try String(contentsOf: try #require(recorder.recordedFiles.first), encoding: .utf8)
            for secret in ["token-secret", "cookie-secret", "proxy-secret", "key-secret", "server-secret"] {
                #expect(!file.contains(secret), "\(secret) leaked into the recording")
            }
            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.request.headers.filter { $0.value == RecordedHeader.redactedValue }.count == 4)
            #expect(exchange.request.headers.last == RecordedHeader(name: "Accept", value: "*/*"))
            #expect(exchange.response?.headers.first == RecordedHeader(name: "Set-Cookie", value: "<redacted>"))
        }
    }

    @Test func recordsABinaryBodyAsBase64() async throws {
        try await withTemporaryDirectory { directory in
            let wrapped = StubTransport { _, _ in Response(status: .ok, body: binaryBytes) }
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            let request = try Request(
                method: .post, url: "http://api.test/upload",
                body: HTTPBody(binaryBytes.reversed()))
            let response = try await Client(transport: recorder, interceptors: []).send(request)
            #expect(response.body == binaryBytes)

            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.response?.body?.encoding == .base64)
            #expect(exchange.response?.body?.byteCount == binaryBytes.count)
            #expect(try exchange.response?.body?.decodedBytes() == binaryBytes)
            #expect(exchange.request.body?.encoding == .base64)
            #expect(try exchange.request.body?.decodedBytes() == Array(binaryBytes.reversed()))
        }
    }

    @Test func recordsAStreamedSingleUseRequestBodyAndStillDeliversItIntact() async throws {
        try await withTemporaryDirectory { directory in
            let upload = CountingChunks((0..<20).map { index in Array("chunk \(index);".utf8) })
            let wrapped = StubTransport { request, _ in
                let body = try #require(request.body)
                #expect(body.length == .known(Int64(upload.allBytes.count)))
                #expect(body.replayability == .singleUse)
                #expect(body.bufferedBytes == nil)
                return Response(status: .ok, body: try await body.collect(upTo: 1 << 20))
            }
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            let request = try Request(
                method: .post, url: "http://api.test/upload",
                body: upload.body(declaringLength: true))
            let response = try await Client(transport: recorder, interceptors: []).send(request)

            #expect(response.body == upload.allBytes)
            #expect(upload.pulledCount == upload.chunks.count)  // read exactly once, by the wrapped transport
            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(try exchange.request.body?.decodedBytes() == upload.allBytes)
            #expect(exchange.request.body?.complete == true)
        }
    }

    @Test func recordsAFailureBeforeTheHead() async throws {
        try await withTemporaryDirectory { directory in
            let wrapped = StubTransport.failing(.connectionFailed("Connection refused by api.test"))
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            let error = await failure(of: Client(transport: recorder, interceptors: []), try Request(url: "http://api.test/down"))
            #expect(error?.kind == .connectionFailed)

            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.outcome == .failed)
            #expect(exchange.response == nil)
            #expect(
                exchange.error
                    == RecordedError(kind: "connectionFailed", message: "Connection refused by api.test"))
        }
    }

    @Test func recordsAFailureMidBodyWithTheBytesReadSoFar() async throws {
        try await withTemporaryDirectory { directory in
            let wrapped = StubTransport { _, _ in
                let chunks = FailingChunks(
                    bytes: Array("partial".utf8),
                    error: .protocolViolation("truncated by api.test"))
                return Response(HTTPResponse(status: .ok), body: HTTPBody(chunks))
            }
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            let error = await failure(of: Client(transport: recorder, interceptors: []), try Request(url: "http://api.test/cut"))
            #expect(error?.kind == .protocolViolation)

            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.outcome == .failed)
            #expect(exchange.error?.kind == "protocolViolation")
            #expect(exchange.response?.body?.content == "partial")
            #expect(exchange.response?.body?.complete == false)
        }
    }

    @Test func recordsAnAbandonedBodyWhenTheCallerDropsIt() async throws {
        try await withTemporaryDirectory { directory in
            let chunks = CountingChunks([Array("one".utf8), Array("two".utf8), Array("three".utf8)])
            let recorder = try RecordingTransport(wrapping: streamingStub(chunks), directory: directory)
            try await readFirstChunkOnly(Client(transport: recorder, interceptors: []), url: "http://api.test/long")

            #expect(recorder.recordedFiles.count == 1)
            let exchange = try #require(try RecordedExchange.loadAll(from: directory).first)
            #expect(exchange.outcome == .abandoned)
            #expect(exchange.response?.body?.content == "one")
            #expect(exchange.response?.body?.complete == false)
        }
    }

    /// Reads one chunk of the body, then lets the response go.
    private func readFirstChunkOnly(_ client: Client, url: String) async throws {
        let response = try await client.stream(Request(url: url))
        var iterator = response.body.makeAsyncIterator()
        _ = try await iterator.next()
    }

    @Test func namesFilesBySequenceMethodAndSanitizedPath() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = try RecordingTransport(wrapping: StubTransport.status(.ok), directory: directory)
            let client = Client(transport: recorder, interceptors: [])
            _ = try await client.send(Request(url: "http://api.test/users/42?fields=name"))
            _ = try await client.send(Request(method: .post, url: "http://api.test/"))
            _ = try await client.send(Request(method: .delete, url: "http://api.test/a%20b/c.json"))
            #expect(
                recorder.recordedFiles.map(\.lastPathComponent) == [
                    "0001-GET-users_42.json", "0002-POST-root.json", "0003-DELETE-a_20b_c_json.json"
                ])
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(names == recorder.recordedFiles.map(\.lastPathComponent))
            let exchanges = try RecordedExchange.loadAll(from: directory)
            #expect(exchanges.map(\.request.target) == ["GET /users/42?fields=name", "POST /", "DELETE /a%20b/c.json"])
        }
    }

    @Test func writesHumanReadableJSON() async throws {
        try await withTemporaryDirectory { directory in
            let wrapped = StubTransport.status(.ok, body: "{\"id\":1}")
            let recorder = try RecordingTransport(wrapping: wrapped, directory: directory)
            _ = try await Client(transport: recorder, interceptors: []).send(Request(url: "http://api.test/users/1"))
            let text = try String(contentsOf: try #require(recorder.recordedFiles.first), encoding: .utf8)
            #expect(text.contains("\n  \"outcome\" : \"completed\""))
            #expect(text.contains("\"path\" : \"/users/1\""))
            #expect(text.contains("\"content\" : \"{\\\"id\\\":1}\""))
        }
    }
}
