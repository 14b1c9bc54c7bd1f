import Foundation
import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `/redirect-to` on `server`, pointing at `location`.
private func redirect(_ server: LoopbackServer, to location: String, status: Int = 302) -> String {
    let encoded = location.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? location
    return server.url("/redirect-to?status=\(status)&location=\(encoded)")
}

/// A configuration following redirects with these hooks, without retries.
private func hooked(_ hooks: [RedirectPolicy.Hook]) -> (ClientConfiguration, CollectedEvents) {
    var policy = RedirectPolicy()
    policy.hooks = hooks
    let bus = EventBus()
    return (ClientConfiguration(events: bus, redirects: policy, retry: nil, retryBudget: nil), CollectedEvents(bus))
}

@Suite(.timeLimit(.minutes(2))) struct RedirectHookLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func followGoesOnAndTheHookSeesEachHop(_ kind: TransportKind) async throws {
        let hops = Lock<[RedirectHop]>([])
        let (configuration, events) = hooked([
            .init(name: "watch") { hop in
                hops.withLock { $0.append(hop) }
                return .follow
            }
        ])
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let response = try await client.send(try Request(url: redirect(server, to: "/redirect/1")))
            #expect(response.text == "redirected\n")
            let seen = hops.withLock { $0 }
            try #require(seen.count == 2)
            #expect(seen.map(\.number) == [1, 2])
            #expect(seen.map(\.response.status.code) == [302, 302])
            #expect(seen.allSatisfy { $0.originalRequest.head.path?.hasPrefix("/redirect-to?") == true })
            #expect(seen[0].request.head.path?.hasPrefix("/redirect-to?") == true)
            #expect(seen[0].proposedRequest.head.path == "/redirect/1")
            #expect(seen[1].request.head.path == "/redirect/1")
            #expect(seen[1].proposedRequest.head.path == "/redirect/0")
            #expect(events.names.filter { $0 == "redirected" }.count == 2)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func stopReturnsTheRedirectToTheCaller(_ kind: TransportKind) async throws {
        let (configuration, events) = hooked([.init(name: "stop") { _ in .stop }])
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let response = try await client.send(try Request(url: redirect(server, to: "/small", status: 307)))
            #expect(response.head.status.code == 307)
            #expect(response.head.headerFields[.location] == "/small")
            #expect(server.requestCount(path: "/small") == 0)
            #expect(!events.names.contains("redirected"))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func failEndsTheCallWithTheHooksError(_ kind: TransportKind) async throws {
        let other = try await LoopbackServer.start()
        defer { Task { try await other.shutdown() } }
        // A department that never follows a redirect off its own host.
        let (configuration, _) = hooked([
            .init(name: "stay-home") { hop in
                hop.proposedRequest.head.authority == hop.originalRequest.head.authority
                    ? .follow : .fail(.invalidRequest("Refused a redirect off our host."))
            }
        ])
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let error = await failure(of: client, try Request(url: redirect(server, to: other.url("/small"))))
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message == "Refused a redirect off our host.")
            #expect(error?.response?.status.code == 302)
            #expect(other.requestCount(path: "/small") == 0)
            // The same origin is still followed.
            #expect(try await client.send(try Request(url: redirect(server, to: "/small"))).text == "hello, world\n")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func followModifiedSendsTheHooksRequest(_ kind: TransportKind) async throws {
        let (configuration, events) = hooked([
            .init(name: "re-sign") { hop in
                var signed = hop.proposedRequest
                signed.head.headerFields[HTTPField.Name("X-Signature")!] = "hop-\(hop.number)"
                signed.head.path = "/echo/signed"
                return .followModified(signed)
            }
        ])
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let echo = try EchoReport(try await client.send(try Request(url: redirect(server, to: "/small"))))
            #expect(echo.uri == "/echo/signed")
            #expect(echo.values(of: "X-Signature") == ["hop-1"])
            #expect(server.requestCount(path: "/small") == 0)
            let location = events.all.compactMap { $0.plugin(Redirected.self)?.location }
            #expect(location.first?.hasSuffix("/echo/signed") == true)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func hooksDecideOnlyForTheirScope(_ kind: TransportKind) async throws {
        let (configuration, _) = hooked([.init(name: "payments", scope: RequestScope(tags: ["payments"])) { _ in .stop }])
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            var tagged = try Request(url: redirect(server, to: "/small"))
            tagged.options.tags = ["payments"]
            #expect(try await client.send(tagged).head.status == .found)
            #expect(try await client.send(try Request(url: redirect(server, to: "/small"))).head.status == .ok)
            #expect(server.requestCount(path: "/small") == 1)
        }
    }
}

@Suite struct RedirectHookTests {
    @Test func hooksCompareByNameAndScopeOnly() {
        var one = RedirectPolicy()
        one.hooks = [.init(name: "a") { _ in .follow }]
        var two = RedirectPolicy()
        two.hooks = [.init(name: "a") { _ in .stop }]
        var three = RedirectPolicy()
        three.hooks = [.init(name: "b") { _ in .follow }]
        #expect(one == two)
        #expect(one.hashValue == two.hashValue)
        #expect(one != three)
        #expect(one != RedirectPolicy())
        #expect(Set([one, two, three]).count == 2)
    }
}
