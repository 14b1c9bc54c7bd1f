import ArgumentParser
import Foundation
import Switchyard

/// `yard bench`: a bounded load loop through the client, printing the anchors' `RESULT` line.
///
/// Keeps `--concurrency` requests in flight until `--requests` are done or `--max-seconds` pass,
/// after an untimed warm-up that opens the connections. The full timing harness builds on this.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure a transport through the chain: requests/s and latency percentiles."
    )

    @Option(help: "The URL to request.")
    var url: String

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(help: "Requests kept in flight.")
    var concurrency = 1

    @Option(help: "Measured requests.")
    var requests = 10_000

    @Option(name: .customLong("max-seconds"), help: "Upper bound on the measured run's duration.")
    var maxSeconds = 10.0

    @Option(help: "Untimed requests before measuring.")
    var warmup = 500

    @Option(help: "Pass-through interceptors in front of the transport (measures the chain's cost).")
    var interceptors = 0

    @Flag(name: .customLong("result-line"), help: "Print only the anchors' RESULT line.")
    var resultLine = false

    func validate() throws {
        guard concurrency > 0, requests > 0, maxSeconds > 0, warmup >= 0, interceptors >= 0 else {
            throw ValidationError("--concurrency, --requests and --max-seconds must be positive.")
        }
    }

    func run() async throws {
        let request = try Request(url: url)
        let chain: [any Interceptor] = (0..<interceptors).map { _ in PassThroughInterceptor() }
        let result = try await transport.withTransport { transport in
            let client = Client(transport: transport, interceptors: chain)
            let operation: @Sendable () async throws -> Int = { try await client.send(request).body.count }
            if warmup > 0 {
                _ = await LoadLoop(concurrency: concurrency, total: warmup, maxSeconds: maxSeconds).run(operation)
            }
            return await LoadLoop(concurrency: concurrency, total: requests, maxSeconds: maxSeconds).run(operation)
        }
        print(result.resultLine(client: "yard\(transport.rawValue)", url: url, concurrency: concurrency))
        if !resultLine, let firstError = result.firstError {
            FileHandle.standardError.write(Data("first error: \(firstError)\n".utf8))
        }
    }
}

/// Forwards to `next` unchanged: the unit of chain overhead.
struct PassThroughInterceptor: Interceptor {
    func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        try await next(request)
    }
}
