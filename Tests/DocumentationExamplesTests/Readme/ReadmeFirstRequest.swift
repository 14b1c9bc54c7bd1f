import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import Testing

// README.md, "First request": compiled with exactly the README's two imports (it names
// api.example.com, so it is not run; `FirstRequestTests` runs the same calls on loopback).
func readmeFirstRequest() async throws {
    struct User: Decodable {
        var id: Int
        var name: String
    }

    let client = Client(transport: CurlTransport())  // follows redirects, retries idempotent requests, rejects 4xx/5xx
    let response = try await client.send(try Request(url: "https://api.example.com/users/42"))
    let user = try response.decode(User.self)  // a typed SwitchyardError names what did not fit
    print(user.name, response.status, response.headerFields[.contentType] ?? "", response.timings.firstByte ?? .zero)
}

/// The README's first program, run on loopback: the same calls, with the server's URL and a model
/// of its `/echo` answer.
@Suite(.timeLimit(.minutes(2))) struct FirstRequestTests {
    struct Echo: Decodable {
        var method: String
        var uri: String
        var headers: [[String]]
    }

    @Test func theFirstProgramSendsDecodesAndIdentifiesItself() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }

        let client = Client(transport: CurlTransport())
        let response = try await client.send(try Request(url: server.url("/echo/users/42")))
        let echo = try response.decode(Echo.self)
        #expect(echo.method == "GET" && echo.uri == "/echo/users/42")
        #expect(echo.headers.contains(["User-Agent", "Switchyard/\(SwitchyardVersion.current)"]))
        #expect(response.timings.firstByte != nil)
        #expect(response.status == .ok && response.status == response.head.status)
        #expect(response.headerFields[.contentType] == response.head.headerFields[.contentType])
        #expect(response.headerFields[.contentType] != nil)
    }

    @Test func aBodyThatDoesNotFitIsATypedDecodingError() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }

        let response = try await Client(transport: CurlTransport()).send(try Request(url: server.url("/small")))
        do throws(SwitchyardError) {
            _ = try response.decode(Echo.self)
            Issue.record("a text body decoded as JSON")
        } catch {
            #expect(error.kind == .decoding)
            #expect(error.message.contains("Echo"))
        }
    }
}
