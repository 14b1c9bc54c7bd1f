import ArgumentParser
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer

/// `yard demo`: a short, readable tour of the pipeline against the embedded loopback server, on
/// every transport (or one).
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Start the embedded server and show the chain at work on each transport: plugins, retry, "
            + "pop-up events, timings, cancellation, deadlines, typed errors."
    )

    @Option(help: "The transport to tour: \(TransportChoice.names), or all (default).")
    var transport: String = "all"

    func validate() throws {
        guard transport == "all" || TransportChoice(rawValue: transport) != nil else {
            throw ValidationError("--transport must be one of \(TransportChoice.names) or all.")
        }
    }

    func run() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let choices = TransportChoice(rawValue: transport).map { [$0] } ?? TransportChoice.allCases
        for choice in choices {
            try await choice.withTransport { transport in
                try await DemoTour(server: server, transportName: choice.rawValue, transport: transport).run()
            }
        }
    }
}
