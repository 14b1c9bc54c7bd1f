import Foundation
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// `yard ws`: standard input's lines out, messages in, exit status by close code.
@Suite(.timeLimit(.minutes(2))) struct YardWebSocketTests {
    private func ws(_ server: LoopbackServer, _ path: String) -> String {
        "ws://" + server.url(path).dropFirst("http://".count)
    }

    /// Runs `yard ws` with `input` on its standard input.
    private func runWebSocket(_ input: String, _ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let quoted = ([yardExecutablePath, "ws"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try await runProgram("sh", ["-c", "printf '\(input)' | \(quoted)"])
    }

    @Test func linesAreEchoedAndTheEndOfInputClosesNormally() async throws {
        try await withLoopbackServer { server in
            let run = try await runWebSocket("hello\\nworld\\n", [ws(server, "/ws/echo?key=yard")])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "hello\nworld\n")
            #expect(await eventually { server.webSocketLog(key: "yard").contains { $0.hasPrefix("close:1000:") } })
        }
    }

    @Test func aServerCloseWithAnotherCodeExitsOne() async throws {
        try await withLoopbackServer { server in
            let run = try await runWebSocket("", [ws(server, "/ws/close?key=yc")])
            #expect(run.status == 1)
            #expect(run.stderr.contains("4000"))
            #expect(run.stderr.contains("server says bye"))
        }
    }

    @Test func anOversizedMessageIsATypedErrorAndExitOne() async throws {
        try await withLoopbackServer { server in
            let run = try await runWebSocket("", ["--max-message-bytes", "1000", ws(server, "/ws/oversized?key=yo&size=5000")])
            #expect(run.status == 1)
            #expect(run.stderr.contains("responseTooLarge"))
        }
    }
}
