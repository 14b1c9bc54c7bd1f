import Foundation
import SwitchyardTestServer
import Testing

/// Bytes from the network on which a platform library traps, killing the process, with no way for
/// a caller to intercept them (declared in the README's transports table and as crashing
/// limitations of the conformance suite). Each runs in a child `yard` process so the test process
/// survives. When one of these children starts to survive, the platform was fixed: the test fails
/// so the declaration is removed.
@Suite(.timeLimit(.minutes(2)))
struct YardPlatformTrapTests {
    static let traps: [(transport: String, path: String, upstream: String)] = [
        (
            "urlsession", "/malformed/trailers",
            "FoundationNetworking NativeProtocol.swift: 'Transfer completed, but there's no response' after chunked trailers"
        ),
        (
            "ahc", "/malformed/status-099",
            "AsyncHTTPClient HTTPRequestStateMachine: preconditionFailure on a body after a status below 100"
        )
    ]

    @Test(arguments: 0..<traps.count)
    func thePlatformStillTraps(_ index: Int) async throws {
        let trap = Self.traps[index]
        let server = try await LoopbackServer.start()
        // No backtracer: the crash is expected, and swift-backtrace can outlive it holding the output pipes
        // (seen under AddressSanitizer, where it never exited).
        let run = try await runYard(
            ["request", server.url(trap.path), "--transport", trap.transport, "--json"], environment: ["SWIFT_BACKTRACE": "enable=no"])
        try await server.shutdown()
        #expect(
            run.status > 128,
            """
            yard survived \(trap.path) on \(trap.transport) (exit \(run.status)): \(trap.upstream) seems fixed; \
            remove the crashing limitation and the README note. Output: \(run.stdout.prefix(300))
            """)
    }
}
