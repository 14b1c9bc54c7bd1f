import Foundation
import SwitchyardTestServer
import Testing

/// Every proxy variable curl reads, emptied, so the parent's environment cannot leak into a test.
private let noProxyVariables = [
    "http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "", "all_proxy": "",
    "ALL_PROXY": "", "no_proxy": "", "NO_PROXY": ""
]

private func environment(_ variables: [String: String]) -> [String: String] {
    noProxyVariables.merging(variables) { $1 }
}

@Suite(.timeLimit(.minutes(2))) struct YardProxyTests {
    @Test func proxyFlagSendsThroughTheProxy() async throws {
        let server = try await LoopbackServer.start()
        let proxy = try await LoopbackProxy.start(requiringCredentials: ("alice", "s3cret"))
        defer {
            Task {
                try? await server.shutdown()
                try? await proxy.shutdown()
            }
        }
        let run = try await runYard(
            ["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--proxy", proxy.url(user: "alice", password: "s3cret")],
            environment: environment([:]))
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        let json = try jsonObject(run.stdout)
        #expect(json["status"] as? Int == 200)
        #expect(proxy.forwardedRequests(to: "127.0.0.1:\(server.port)") == 1)
        #expect(proxy.traffic.credentials == ["alice:s3cret"])
    }

    @Test func wrongProxyCredentialsFailWithoutPrintingThem() async throws {
        let server = try await LoopbackServer.start()
        let proxy = try await LoopbackProxy.start(requiringCredentials: ("alice", "s3cret"))
        defer {
            Task {
                try? await server.shutdown()
                try? await proxy.shutdown()
            }
        }
        let run = try await runYard(
            [
                "request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "-v", "--proxy",
                proxy.url(user: "alice", password: "Wr0ng-PASS")
            ], environment: environment([:]))
        #expect(run.status == 56)  // connectionFailed without a finer reason, as curl's CONNECT answered 407
        let json = try jsonObject(run.stdout)
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "connectionFailed")
        #expect((error["message"] as? String)?.contains("proxy 127.0.0.1:\(proxy.port)") == true)
        #expect(!run.stdout.contains("Wr0ng-PASS"))
        #expect(!run.stderr.contains("Wr0ng-PASS"))
    }

    @Test(arguments: ["curl", "urlsession", "ahc"])
    func theProxyEnvironmentIsReadByDefault(transport: String) async throws {
        let server = try await LoopbackServer.start()
        let proxy = try await LoopbackProxy.start()
        defer {
            Task {
                try? await server.shutdown()
                try? await proxy.shutdown()
            }
        }
        let run = try await runYard(
            ["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--transport", transport],
            environment: environment(["http_proxy": proxy.url]))
        #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
        #expect(proxy.traffic.passedThrough == 1)
        #expect(server.requestCount(path: "/small") == 1)
    }

    @Test func upperCaseHTTPProxyIsIgnoredAndNoproxyBypasses() async throws {
        let server = try await LoopbackServer.start()
        let proxy = try await LoopbackProxy.start()
        defer {
            Task {
                try? await server.shutdown()
                try? await proxy.shutdown()
            }
        }
        let upper = try await runYard(
            ["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}"],
            environment: environment(["HTTP_PROXY": proxy.url]))
        #expect(upper.status == 0)
        let bypassed = try await runYard(
            ["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--noproxy", "127.0.0.1"],
            environment: environment(["http_proxy": proxy.url]))
        #expect(bypassed.status == 0)
        let direct = try await runYard(
            ["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}", "--proxy", ""],
            environment: environment(["http_proxy": proxy.url]))
        #expect(direct.status == 0)
        #expect(server.requestCount(path: "/small") == 3)
        #expect(proxy.traffic == ProxyTraffic(), "the proxy saw nothing")
    }
}
