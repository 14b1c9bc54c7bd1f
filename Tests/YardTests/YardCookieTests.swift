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

    /// RFC 6265bis §5.7: `Domain` equal to the host, in both spellings, makes a domain cookie. `yard -c`
    /// writes it as curl does (`.home.example.org TRUE`), `-b` reads it back for a subdomain and keeps
    /// the flag, and curl reads yard's jar. The names reach the loopback server with `--resolve`, the
    /// same flag for both programs.
    @Test(arguments: ["curl", "urlsession", "ahc"], ["home.example.org", ".home.example.org"])
    func aDomainEqualToTheHostIsWrittenAsCurlWritesItAndReachesSubdomains(_ transport: String, _ domain: String) async throws {
        try await withLoopbackServer { server in
            let port = server.port
            let resolve = ["--resolve", "home.example.org:\(port):127.0.0.1", "--resolve", "sub.home.example.org:\(port):127.0.0.1"]
            let set = "http://home.example.org:\(port)/cookies/set?cookie=foo%3Dbar%3B%20Path%3D%2F%3B%20domain%3D\(domain)"
            let line = "\n.home.example.org\tTRUE\t/\tFALSE\t0\tfoo\tbar\n"
            let jar = try temporaryPath("jar.txt")
            let run = try await runYard(["request", "--transport", transport, "-c", jar] + resolve + [set])
            #expect(run.status == 0, "\(run.stderr)")
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            #expect(text.contains(line), "\(text)")
            let curlJar = try temporaryPath("curl-jar.txt")
            let curl = try await runProgram("curl", ["-s", "-c", curlJar] + resolve + [set])
            #expect(curl.status == 0)
            let curlText = try String(contentsOfFile: curlJar, encoding: .utf8)
            #expect(curlText.contains(line), "curl writes the same line: \(curlText)")
            let echo = "http://sub.home.example.org:\(port)/cookies/echo"
            let again = try temporaryPath("again.txt")
            let back = try await runYard(["request", "--transport", transport, "-b", jar, "-c", again] + resolve + [echo])
            #expect(back.status == 0, "\(back.stderr)")
            #expect(back.stdout == "foo=bar", "a subdomain receives the cookie read back from the file")
            #expect(try String(contentsOfFile: again, encoding: .utf8).contains(line), "written again with its domain flag")
            let curlBack = try await runProgram("curl", ["-s", "-b", jar] + resolve + [echo])
            #expect(curlBack.stdout == "foo=bar", "curl -b reads yard's jar")
        }
    }

    @Test func resolveSendsTheNameAsHostAndRefusesHTTPS() async throws {
        try await withLoopbackServer { server in
            let resolve = ["--resolve", "named.example:\(server.port):127.0.0.1"]
            let run = try await runYard(["request"] + resolve + ["http://named.example:\(server.port)/echo"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(#"["Host","named.example:\#(server.port)"]"#), "\(run.stdout)")
            let tls = try await runYard(["request"] + resolve + ["https://named.example:\(server.port)/echo"])
            #expect(tls.status != 0)
            #expect(tls.stderr.contains("--resolve"), "\(tls.stderr)")
            let malformed = try await runYard(["request", "--resolve", "named.example:80", "http://named.example/"])
            #expect(malformed.status == 64, "\(malformed.stderr)")
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
