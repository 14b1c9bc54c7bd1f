import ArgumentParser
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer

/// `yard demo`: a short, readable tour of the pipeline against the embedded loopback server.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the embedded server and show the chain at work: timings, cancellation, deadlines, typed errors."
    )

    @Option(help: "The transport to tour: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    func run() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        try await transport.withTransport { transport in
            try await tour(Client(transport: transport, interceptors: [DemoTraceInterceptor()]), on: server)
        }
    }

    private func tour(_ client: Client, on server: LoopbackServer) async throws {
        let chain = client.pipeline.interceptors.map { "\(type(of: $0))" } + ["\(type(of: client.pipeline.transport))"]
        print("Switchyard demo — embedded server at \(server.baseURL), transport: \(transport.rawValue)")
        print("chain: " + chain.joined(separator: " → "))

        section(1, "A successful request, with its phase timings")
        await show(client, try Request(url: server.url("/small")))

        section(2, "A request cancelled mid-flight (the server waits forever)")
        let stalled = Task { try await client.send(try Request(url: server.url("/stall?tag=demo-cancel"))) }
        try await Task.sleep(for: .milliseconds(200))
        stalled.cancel()
        report(await stalled.result)
        let closed = await server.waitForDisconnect(tag: "demo-cancel", timeout: .seconds(2))
        print("   server saw the connection close: \(closed ? "yes" : "no")")

        section(3, "A deadline that expires while the server is slow")
        var slow = try Request(url: server.url("/delay/5000"))
        slow.options.timeout = .milliseconds(300)
        await show(client, slow)

        section(4, "Malformed responses become typed errors, never short bodies")
        for path in ["/malformed/status-line", "/malformed/truncated-length", "/malformed/bad-chunk"] {
            await show(client, try Request(url: server.url(path)))
        }

        section(5, "A port where nothing listens")
        await show(client, try Request(url: "http://127.0.0.1:9/"))

        section(6, "A header value with CR/LF is refused before anything is sent")
        do {
            _ = try Request(url: server.url("/echo"), headers: ["X-Evil": "a\r\nInjected: 1"])
        } catch {
            let error = SwitchyardError.wrapping(error)
            print("   ✗ \(error.kind.rawValue): \(error.message)")
        }
    }

    private func section(_ number: Int, _ title: String) {
        print("\n\(number). \(title)")
    }

    private func show(_ client: Client, _ request: Request) async {
        do {
            report(.success(try await client.send(request)))
        } catch {
            report(.failure(error))
        }
    }

    private func report(_ result: Result<BufferedResponse, any Error>) {
        switch result {
        case .success(let response):
            let preview = response.text.prefix(40).trimmingCharacters(in: .whitespacesAndNewlines)
            print("   ✓ \(response.head.status.code) \(response.head.status.reasonPhrase), \(response.body.count) bytes “\(preview)”")
            print("   timings: " + Self.describe(response.timings))
        case .failure(let error):
            let error = SwitchyardError.wrapping(error)
            print("   ✗ \(error.kind.rawValue): \(error.message)")
        }
    }

    private static func describe(_ timings: TransferTimings) -> String {
        let phases: [(String, Duration?)] = [
            ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls),
            ("ttfb", timings.firstByte), ("total", timings.total),
        ]
        return phases.compactMap { name, value in
            value.map { "\(name) \(String(format: "%.2f", $0.milliseconds)) ms" }
        }.joined(separator: " · ")
    }
}

/// Prints each request on its way down and each outcome on its way up: the chain made visible.
struct DemoTraceInterceptor: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let timeout = request.options.timeout.map { " (timeout \(Int($0.milliseconds)) ms)" } ?? ""
        print("   → \(request.head.method) \(request.head.path ?? "/")\(timeout)   [exchange #\(context.id)]")
        let started = ContinuousClock.now
        do {
            let response = try await next(request)
            print("   ← head \(response.head.status.code) after \(Self.elapsed(since: started))")
            return response
        } catch {
            print("   ← failed after \(Self.elapsed(since: started))")
            throw error
        }
    }

    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        String(format: "%.1f ms", start.duration(to: .now).milliseconds)
    }
}
