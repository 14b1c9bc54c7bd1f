import ArgumentParser
import SwitchyardTestServer

/// `yard serve`: the embedded loopback server, for trying things by hand.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the embedded loopback test server until interrupted."
    )

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port: Int = 0

    @Option(name: .long, help: "Event-loop threads of the server.")
    var threads: Int = 1

    func run() async throws {
        let server = try await LoopbackServer.start(.init(port: port, threads: threads))
        print("serving on \(server.baseURL)  (try \(server.url("/small")), /echo, /bytes/1048576, /status/503)")
        print("press Ctrl-C to stop")
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
