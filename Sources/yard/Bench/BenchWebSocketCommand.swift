import ArgumentParser
import Switchyard
import SwitchyardWebSocket

/// `yard bench ws`: small messages to a WebSocket echo peer through `SwitchyardWebSocket`, each
/// echo read before it counts; prints messages/s and the process's CPU as one JSON line.
struct BenchWebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Send N text messages to a WebSocket echo peer and read the echoes; print messages/s and CPU as a JSON line.",
        discussion: """
            Example, against yard serve: yard bench ws ws://127.0.0.1:8080/ws/echo --messages 20000 --size 16 --window 1
            At most --window messages are unanswered at a time (1: one round trip after the other). \
            yard bench's --warmup round trips go first on the same connection and are not measured; \
            total counts them too.
            """
    )

    @ParentCommand var bench: BenchCommand

    @Argument(help: "The echo peer's ws:// URL (yard serve: /ws/echo).")
    var url: String

    @Option(help: "Measured messages.")
    var messages = 10_000

    @Option(help: "Bytes of text per message.")
    var size = 16

    @Option(help: "Messages in flight at most.")
    var window = 1

    func validate() throws {
        guard messages > 0, size >= 0, window > 0 else {
            throw ValidationError("--messages and --window must be positive; --size not negative.")
        }
    }

    func run() async throws {
        let socket = try await WebSocketClient().connect(url: url)
        let text = String(repeating: "x", count: size)
        let (messages, window, warmup) = (messages, window, bench.warmup)  // not read through property wrappers per message
        var echoes = socket.makeAsyncIterator()
        for (measured, total) in [(false, warmup), (true, messages)] where total > 0 {
            let meter = StreamMeter()
            var (sent, received) = (0, 0)
            while received < total {
                while sent < total, sent - received < window {
                    try await socket.send(.text(text))
                    sent += 1
                }
                guard try await echoes.next() != nil else {
                    throw SwitchyardError(.webSocketClosed, "The peer closed after \(received) echoes.")
                }
                received += 1
            }
            if measured {
                let extra = [("total", "\(messages + warmup)"), ("window", "\(window)"), ("size", "\(size)")]
                print(meter.line(client: "yard-ws", count: total, extra: extra))
            }
        }
        await socket.close(code: 1000)
    }
}
