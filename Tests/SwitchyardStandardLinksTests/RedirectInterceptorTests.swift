import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

/// A response redirecting with `status` to `location` (no `Location` header when `nil`).
private func redirect(_ status: Int, to location: String?) -> Response {
    var fields = HTTPFields()
    if let location { fields[.location] = location }
    return Response(status: .init(code: status), headerFields: fields, body: Array("moved".utf8))
}

/// A stub that redirects requests for `from` (path) with `status` to `location`, and answers
/// everything else 200 with `METHOD scheme://authority/path`.
private func redirecting(_ from: String = "/start", status: Int = 302, to location: String?) -> StubTransport {
    StubTransport { request, _ in
        if request.head.path == from { return redirect(status, to: location) }
        let head = request.head
        return Response(status: .ok, body: Array("\(head.method) \(head.scheme ?? "")://\(head.authority ?? "")\(head.path ?? "")".utf8))
    }
}

private func send(_ stub: StubTransport, _ request: Request, policy: RedirectPolicy = RedirectPolicy()) async throws -> BufferedResponse {
    try await Client(transport: stub, interceptors: [RedirectInterceptor(policy: policy)]).send(request)
}

@Suite struct RedirectInterceptorTests {
    @Test(arguments: [301, 302, 303])
    func seeOtherStylesBecomeBodylessGet(status: Int) async throws {
        let stub = redirecting(status: status, to: "/next")
        let request = try Request(
            method: .post, url: "http://a.test/start",
            headers: ["Content-Type": "application/json", "X-Keep": "1"], body: HTTPBody("{}"))
        let response = try await send(stub, request)
        #expect(response.text == "GET http://a.test/next")
        let second = try #require(stub.requests.last)
        #expect(second.body == nil)
        #expect(second.head.headerFields[.contentType] == nil)
        #expect(second.head.headerFields[HTTPField.Name("X-Keep")!] == "1")
    }

    @Test(arguments: [301, 302, 303])
    func headStaysHead(status: Int) async throws {
        let response = try await send(redirecting(status: status, to: "/next"), try Request(method: .head, url: "http://a.test/start"))
        #expect(response.text == "HEAD http://a.test/next")
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentKeepMethodAndBody(status: Int) async throws {
        let stub = redirecting(status: status, to: "/next")
        let request = try Request(method: .put, url: "http://a.test/start", headers: ["Content-Type": "text/plain"], body: HTTPBody("data"))
        let response = try await send(stub, request)
        #expect(response.text == "PUT http://a.test/next")
        let second = try #require(stub.requests.last)
        #expect(try await second.body?.collect(upTo: 100) == Array("data".utf8))
        #expect(second.head.headerFields[.contentType] == "text/plain")
    }

    @Test func aSingleUseBodyIsNotReplayedAndTheRedirectIsReturned() async throws {
        let stub = StubTransport { request, _ in
            for try await _ in request.body ?? HTTPBody([]) {}
            return request.head.path == "/start" ? redirect(307, to: "/next") : Response(status: .ok)
        }
        let body = HTTPBody(
            AsyncStream<[UInt8]> {
                $0.yield([1])
                $0.finish()
            })
        let response = try await send(stub, try Request(method: .post, url: "http://a.test/start", body: body))
        #expect(response.head.status.code == 307)
        #expect(stub.callCount == 1)
    }

    @Test(arguments: [
        ("../x?q=1", "http://a.test/a/x?q=1"),
        ("/abs", "http://a.test/abs"),
        ("sibling", "http://a.test/a/b/sibling"),
        ("?page=2", "http://a.test/a/b/c?page=2"),
        ("//b.test:8080/p", "http://b.test:8080/p"),
        ("https://c.test/secure#frag", "https://c.test/secure")
    ])
    func locationsResolveAgainstTheCurrentURL(location: String, expected: String) async throws {
        let response = try await send(redirecting("/a/b/c", to: location), try Request(url: "http://a.test/a/b/c"))
        #expect(response.text == "GET \(expected)")
    }

    @Test(arguments: [nil, "", "ftp://a.test/file", "http://", "mailto:x@a.test"] as [String?])
    func missingOrUnusableLocationsAreNotFollowed(location: String?) async throws {
        let stub = redirecting(to: location)
        let response = try await send(stub, try Request(url: "http://a.test/start"))
        #expect(response.head.status.code == 302)
        #expect(response.text == "moved")
        #expect(stub.callCount == 1)
    }

    @Test(arguments: [
        "http://[::1", "http://a b/", "http://a.test:99999/", "http://%zz/", "\\\\evil.test\\x",
        "http:/x", "https:evil.test", "http://ünicode.test/ä", "http://a.test/%", "http://@/", " ", "\u{0}"
    ])
    func hostileLocationsNeverCrash(location: String) async throws {
        let stub = redirecting(to: location)
        let response = try await send(stub, try Request(url: "http://a.test/start"))
        #expect(response.head.status.code == 302 || response.head.status == .ok)
    }

    @Test(arguments: [300, 304, 305, 306])
    func otherThreeHundredsAreNotFollowed(status: Int) async throws {
        let stub = redirecting(status: status, to: "/next")
        #expect(try await send(stub, try Request(url: "http://a.test/start")).head.status.code == status)
        #expect(stub.callCount == 1)
    }

    @Test(arguments: ["http://b.test/next", "https://a.test/next", "http://a.test:8080/next"])
    func credentialsDoNotCrossOrigins(location: String) async throws {
        let stub = redirecting(to: location)
        let request = try Request(
            url: "http://a.test/start",
            headers: [
                "Authorization": "Bearer secret", "Cookie": "session=1", "Proxy-Authorization": "Basic x", "X-Other": "kept"
            ])
        _ = try await send(stub, request)
        let fields = try #require(stub.requests.last).head.headerFields
        #expect(fields[.authorization] == nil)
        #expect(fields[.cookie] == nil)
        #expect(fields[.proxyAuthorization] == nil)
        #expect(fields[HTTPField.Name("X-Other")!] == "kept")
    }

    @Test(arguments: ["/next", "http://A.TEST/next", "http://a.test:80/next"])
    func credentialsStayWithinTheOrigin(location: String) async throws {
        let stub = redirecting(to: location)
        _ = try await send(stub, try Request(url: "http://a.test/start", headers: ["Authorization": "Bearer secret"]))
        #expect(try #require(stub.requests.last).head.headerFields[.authorization] == "Bearer secret")
    }

    @Test func downgradeToHTTPIsRefusedUnlessAllowed() async throws {
        let stub = redirecting(to: "http://a.test/next")
        let error = await #expect(throws: SwitchyardError.self) {
            try await send(stub, try Request(url: "https://a.test/start"))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("allowsInsecureRedirects") == true)
        #expect(error?.response?.status.code == 302)
        #expect(stub.callCount == 1)
        let allowed = try await send(stub, try Request(url: "https://a.test/start"), policy: RedirectPolicy(allowsInsecureRedirects: true))
        #expect(allowed.text == "GET http://a.test/next")
    }

    @Test func tooManyRedirectsNamesTheChain() async throws {
        let loop = StubTransport { request, _ in
            let hop = Int(request.head.path?.dropFirst().prefix { $0 != "?" } ?? "") ?? 0
            return redirect(302, to: "/\(hop + 1)?token=secret")
        }
        let error = await #expect(throws: SwitchyardError.self) {
            try await send(loop, try Request(url: "http://user:pw@a.test/0"), policy: RedirectPolicy(maxRedirects: 3))
        }
        #expect(error?.kind == .tooManyRedirects)
        #expect(loop.callCount == 4)
        let message = error?.message ?? ""
        #expect(message.contains("http://a.test/0 → http://a.test/1?… → http://a.test/2?… → http://a.test/3?… → http://a.test/4?…"))
        #expect(!message.contains("secret") && !message.contains("pw"))
    }

    @Test func exactlyTheLimitIsFollowed() async throws {
        let stub = StubTransport { request, _ in
            let hop = Int(request.head.path?.dropFirst() ?? "") ?? 0
            return hop < 3 ? redirect(302, to: "/\(hop + 1)") : Response(status: .ok)
        }
        let response = try await send(stub, try Request(url: "http://a.test/0"), policy: RedirectPolicy(maxRedirects: 3))
        #expect(response.head.status == .ok)
        #expect(stub.callCount == 4)
    }

    @Test func eachHopPublishesAnEvent() async throws {
        let bus = EventBus()
        let events = bus.subscribe()
        let stub = StubTransport { request, _ in
            let hop = Int(request.head.path?.dropFirst() ?? "") ?? 0
            return hop < 2 ? redirect(301 + hop * 6, to: "/\(hop + 1)") : Response(status: .ok)
        }
        let client = Client(transport: stub, interceptors: [RedirectInterceptor()], events: bus)
        _ = try await client.send(try Request(url: "http://a.test/0"))
        var seen: [String] = []
        for await event in events {
            guard let hop = event.plugin(Redirected.self) else { continue }
            let (status, location) = (hop.status, hop.location)
            seen.append("\(status) \(location)")
            if seen.count == 2 { break }
        }
        #expect(seen == ["301 http://a.test/1", "307 http://a.test/2"])
    }
}
