import ArgumentParser
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardJSON
import SwitchyardStreams

/// `yard stream`: the events of a server-sent event stream, or the values of a JSON-lines body, one
/// compact JSON value per line on standard output.
struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Print a server-sent event stream (or, with --ndjson, a JSON-lines body) as one JSON value per line.",
        discussion: """
            Each event prints as {"event":TYPE,"data":DATA,"id":LAST-EVENT-ID or null}. The stream \
            reconnects as a browser does (Last-Event-ID, the server's retry:) until the server answers \
            204 or --max-events events were printed (exit 0). A status other than 200 (whatever its \
            content type) or a content type other than text/event-stream ends it at once, without \
            reconnecting, with exit 1 and eventStreamRejected naming the status on standard error. \
            With --ndjson each line's value prints compact (members sorted), without reconnecting; a \
            status outside 200-299 exits 1 with httpStatus, a line that is not JSON exits 1 naming its \
            line number.
            """
    )

    @Argument(help: "The absolute http or https URL.")
    var url: String

    @Option(name: [.customShort("H"), .customLong("header")], help: "A header 'Name: value'; repeatable.")
    var headers: [String] = []

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(name: .customLong("max-events"), help: "Stop after printing N events (or lines).")
    var maxEvents: Int?

    @Option(name: .customLong("max-event-bytes"), help: "Fail with eventTooLarge past this many bytes in one event or line.")
    var maxEventBytes = 1 << 20

    @Flag(help: "Read the body as JSON lines (NDJSON) instead of an event stream.")
    var ndjson = false

    func validate() throws {
        if let maxEvents, maxEvents < 1 { throw ValidationError("--max-events must be at least 1.") }
        if maxEventBytes < 1 { throw ValidationError("--max-event-bytes must be at least 1.") }
    }

    func run() async throws {
        do {
            var request = try Request(url: url)
            request.head.headerFields.append(contentsOf: try HeaderArguments.fields(headers))
            try await transport.withTransport { transport in
                let client = Client(transport: transport)
                if ndjson {
                    try await printLines(client, request)
                } else {
                    try await printEvents(client, request)
                }
            }
        } catch {
            let error = SwitchyardError.wrapping(error)
            FileHandle.standardError.write(Data("error: \(error.kind.rawValue): \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func printEvents(_ client: Client, _ request: Request) async throws {
        var printed = 0
        for try await event in client.serverSentEvents(request, options: EventStreamOptions(maximumEventBytes: maxEventBytes)) {
            let id: JSONValue = event.lastEventID.map(JSONValue.string) ?? .null
            let line = JSONValue.object(JSONObject([("event", .string(event.type)), ("data", .string(event.data)), ("id", id)]))
            emit(line)
            printed += 1
            if let maxEvents, printed >= maxEvents { return }
        }
    }

    private func printLines(_ client: Client, _ request: Request) async throws {
        var printed = 0
        var request = request
        // The response's lines judge the status, before reading a body that may stay open.
        request.options.validation = .everyStatus
        let response = try await client.stream(request)
        for try await value in response.jsonLines(of: JSONValue.self, maximumLineBytes: maxEventBytes) {
            emit(value)
            printed += 1
            if let maxEvents, printed >= maxEvents { return }
        }
    }

    /// One line on standard output, written at once (a reader of a pipe sees each event as it comes).
    private func emit(_ value: JSONValue) {
        FileHandle.standardOutput.write(Data((value.description + "\n").utf8))
    }
}
