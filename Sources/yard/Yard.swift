import ArgumentParser
import Switchyard

/// `yard`: try Switchyard from the command line — a demo, a curl-like request, the test server.
@main
struct Yard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "yard",
        abstract:
            "Switchyard's command line: a tour, a curl-like request through the chain, event streams, a paged-list walk, and the loopback server.",
        version: SwitchyardVersion.current,
        subcommands: [
            DemoCommand.self, RequestCommand.self, StreamCommand.self, WebSocketCommand.self, PagesCommand.self, BurstCommand.self,
            ServeCommand.self,
            BenchCommand.self
        ]
    )
}
