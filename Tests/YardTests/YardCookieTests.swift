import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard request -b` and `-c` as curl has them, and jars passed between yard and curl itself.
@Suite(.timeLimit(.minutes(2))) struct YardCookieTests {
    private func temporaryPath(_ name: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("yard-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    @Test func aJarWrittenWithDashCFollowsRedirectsAndCurlReadsIt() async throws {
        try await withLoopbackServer { server in
            let jar = try temporaryPath("jar.txt")
            let set = server.url("/cookies/set?cookie=sid%3Dabc%3B%20Path%3D%2F&location=/cookies/echo")
            let run = try await runYard(["request", "-L", "-c", jar, set])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("sid=abc"), "the redirect hop sent the cookie its 302 set: \(run.stdout)")
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
            #expect(text.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc"))
            let curl = try await runProgram("curl", ["-s", "-b", jar, server.url("/cookies/echo")])
            #expect(curl.status == 0)
            #expect(curl.stdout == "sid=abc", "curl -b reads yard's jar")
        }
    }

    @Test func aJarCurlWroteIsReadWithDashB() async throws {
        try await withLoopbackServer { server in
            let jar = try temporaryPath("curl-jar.txt")
            let curl = try await runProgram(
                "curl",
                ["-s", "-c", jar, server.url("/cookies/set?cookie=t%3D1%3B%20Path%3D%2F&cookie=u%3D2%3B%20Max-Age%3D3600%3B%20Path%3D%2F")])
            #expect(curl.status == 0)
            let run = try await runYard(["request", "-b", jar, server.url("/cookies/echo")])
            #expect(run.status == 0, "\(run.stderr)")
            // curl lists its newest cookie first; both go in one field either way.
            #expect(run.stdout.contains("u=2; t=1") || run.stdout.contains("t=1; u=2"), "\(run.stdout)")
        }
    }

    @Test func literalCookieDataIsSentAsGiven() async throws {
        try await withLoopbackServer { server in
            let run = try await runYard(["request", "-b", "a=1; b=2", server.url("/cookies/echo")])
            #expect(run.status == 0)
            #expect(run.stdout.contains("a=1; b=2"))
        }
    }

    @Test func aMissingCookieFileIsAnEmptyJarAsInCurl() async throws {
        try await withLoopbackServer { server in
            let missing = try temporaryPath("none.txt")
            let run = try await runYard(["request", "-b", missing, server.url("/cookies/echo")])
            #expect(run.status == 0, "\(run.stderr)")
        }
    }
}
