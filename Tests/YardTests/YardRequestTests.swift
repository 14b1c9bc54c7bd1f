import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

func jsonObject(_ text: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(object as? [String: Any])
}

@Suite(.timeLimit(.minutes(2))) struct YardRequestTests {
    @Test func jsonContractForASuccessfulRequest() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/small"), "-o", "/dev/null", "-w", "%{json}"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let json = try jsonObject(run.stdout)
        #expect(
            Set(json.keys) == [
                "ok", "transport", "status", "http_version", "headers", "body_bytes", "body_sha256",
                "resumed_from", "attempts", "redirects", "timings_ms", "cache", "events", "error"
            ])
        #expect(json["http_version"] as? String == "1.1")
        #expect(json["cache"] is NSNull)
        #expect(json["ok"] as? Bool == true)
        #expect(json["transport"] as? String == "curl")
        #expect(json["status"] as? Int == 200)
        #expect(json["body_bytes"] as? Int == 13)
        // sha256("hello, world\n")
        #expect(json["body_sha256"] as? String == "853ff93762a06ddbf722c4ebe9ddd66d8f63ddaea97f521c3ecc20da7c976020")
        #expect(json["attempts"] as? Int == 1)
        #expect(json["redirects"] as? Int == 0)
        #expect(json["error"] is NSNull)
        let headers = try #require(json["headers"] as? [[String]])
        #expect(headers.contains(["content-length", "13"]))
        #expect(headers.allSatisfy { $0[0] == $0[0].lowercased() })
        let timings = try #require(json["timings_ms"] as? [String: Double])
        #expect(timings["total"] != nil)
        #expect(timings["ttfb"] != nil)
        let events = try #require(json["events"] as? [[String: Any]])
        #expect(events.compactMap { $0["kind"] as? String } == ["started", "succeeded"])
    }

    @Test func anErrorStatusIsStillExitZero() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/status/503"), "-o", "/dev/null", "-w", "%{json}"])
        #expect(run.status == 0)
        #expect(try jsonObject(run.stdout)["status"] as? Int == 503)
    }

    @Test func aClosedPortExits7WithConnectionFailed() async throws {
        let refusing = try RefusingPort()  // nothing listens: every call fails with connectionFailed
        let url = refusing.url("/small")
        defer { refusing.close() }
        let run = try await runYard(["request", url, "-o", "/dev/null", "-w", "%{json}"])
        #expect(run.status == 7)
        let json = try jsonObject(run.stdout)
        #expect(json["ok"] as? Bool == false)
        #expect(json["status"] is NSNull)
        #expect(json["http_version"] is NSNull)
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "connectionFailed")
        #expect((error["message"] as? String)?.isEmpty == false)
    }

    @Test func aHeaderWithCRLFExits3AndSendsNothing() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/echo"), "-H", "X-Evil: a\r\nInjected: yes", "-o", "/dev/null", "-w", "%{json}"]
        )
        #expect(run.status == 3)
        let error = try #require(try jsonObject(run.stdout)["error"] as? [String: Any])
        #expect(error["kind"] as? String == "invalidRequest")
        #expect(server.requestCount(path: "/echo") == 0)
    }

    @Test func badUsageExits64() async throws {
        #expect(try await runYard(["request"]).status == 64)
        #expect(try await runYard(["request", "http://127.0.0.1:1/", "--timeout", "-3"]).status == 64)
    }

    @Test func outputStreamsTheBodyToAFile() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("yard-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await runYard(["request", server.url("/bytes/3000000?framing=chunked"), "--output", path, "-w", "%{json}"])
        #expect(run.status == 0)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(written.count == 3_000_000)
        #expect(written.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
        #expect(try jsonObject(run.stdout)["body_bytes"] as? Int == 3_000_000)
    }

    @Test(arguments: ["content-length", "chunked", "close"])
    func maxBodyBytesIsEnforcedWhateverTheFraming(framing: String) async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard([
            "request", server.url("/bytes/5000000?framing=\(framing)"),
            "--max-body-bytes", "100000", "-o", "/dev/null", "-w", "%{json}"
        ])
        #expect(run.status == 63)
        let json = try jsonObject(run.stdout)
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "responseTooLarge")
        #expect((json["body_bytes"] as? Int ?? .max) <= 100_000)
    }

    @Test func postWithDataEchoes() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let run = try await runYard(["request", server.url("/echo/body"), "-d", "hello yard", "-H", "Content-Type: text/plain"])
        #expect(run.status == 0)
        #expect(run.stdout == "hello yard")  // the body alone: no status line, no fields, nothing added
    }
}
