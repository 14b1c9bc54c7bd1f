import ArgumentParser
import Foundation
import Switchyard
import SwitchyardStreams

/// `yard bench events`: one server-sent event stream read through `SwitchyardStreams` as fast as it
/// comes; prints events/s and the process's CPU as one JSON line.
struct BenchEventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Read N server-sent events through Client.serverSentEvents; print events/s and CPU as a JSON line.",
        discussion: """
            Example, against yard serve: yard bench events 'http://127.0.0.1:8080/events/a?total=200000' --events 200000 --transport ahc
            yard bench's --transport and --chain choose the client (one of each; default curl, bare). \
            The measured stretch runs from the first event to the N-th (count: N - 1), so the server's \
            time to its first byte is left out; total is every event read. CPU is the whole process's \
            user and system time over the stretch. Exit 1 when the stream ends before N events.
            """
    )

    @ParentCommand var bench: BenchCommand

    @Argument(help: "The event stream's URL (yard serve: /events/KEY?total=N).")
    var url: String

    @Option(help: "Events to read.")
    var events = 100_000

    func validate() throws {
        if events < 2 { throw ValidationError("--events must be at least 2.") }
        guard bench.transport.values.count == 1, bench.chain.values.count == 1 else {
            throw ValidationError("yard bench events takes one --transport and one --chain.")
        }
    }

    func run() async throws {
        let request = try Request(url: url)
        let (choice, chain, events) = (bench.transport.values[0], bench.chain.values[0], events)
        let count = try await choice.withTransport { transport in
            let client = try chain.makeClient(transport)
            var meter: StreamMeter?
            var count = 0
            for try await _ in client.serverSentEvents(request) {
                count += 1
                if count == 1 { meter = StreamMeter() }
                if count == events { break }
            }
            let line = (meter ?? StreamMeter()).line(
                client: "yard-sse-\(choice.rawValue)", count: max(count - 1, 0),
                extra: [("total", "\(count)"), ("chain", "\"\(chain.rawValue)\"")])
            print(line)
            return count
        }
        if count < events {
            FileHandle.standardError.write(Data("error: the stream ended after \(count) of \(events) events\n".utf8))
            throw ExitCode(1)
        }
    }
}
