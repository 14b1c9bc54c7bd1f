import ArgumentParser
import Foundation
import Switchyard
import SwitchyardWebSocket

/// `yard ws`: a WebSocket session as websocat runs one: standard input's lines out as text messages,
/// messages in on standard output.
struct WebSocketCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ws",
        abstract: "Send each line of standard input as a WebSocket text message; print each message received.",
        discussion: """
            A text message prints followed by a newline, a binary one as binary:<base64>. At the end of \
            standard input yard sends close 1000 and waits for the server's close. Exit status: 0 on a \
            normal close (1000 or 1001, from either side); 1 otherwise, with the close code and reason \
            or the typed error on standard error. The handshake goes through the chain (header rules, \
            -H); the connection runs on SwiftNIO whatever --transport says.
            """
    )

    @Argument(help: "The ws://, wss://, http:// or https:// URL.")
    var url: String

    @Option(name: [.customShort("H"), .customLong("header")], help: "A header 'Name: value' for the handshake; repeatable.")
    var headers: [String] = []

    @Option(help: "Accepted for symmetry with the other commands: every transport uses the same WebSocket connection.")
    var transport: TransportChoice = .curl

    @Option(name: .customLong("max-message-bytes"), help: "Refuse (close 1009) a message larger than N bytes.")
    var maxMessageBytes = 16 << 20

    func validate() throws {
        if maxMessageBytes < 1 { throw ValidationError("--max-message-bytes must be at least 1.") }
    }

    func run() async throws {
        let socket: WebSocket
        do {
            let client = try WebSocketClient(options: WebSocketOptions(maximumMessageBytes: maxMessageBytes))
            socket = try await client.connect(url: url, headers: try HeaderArguments.fields(headers))
        } catch {
            fail(SwitchyardError.wrapping(error))
        }
        let outcome: SwitchyardError? = await withTaskGroup(of: SwitchyardError?.self) { group in
            group.addTask { await Self.printMessages(of: socket) }
            group.addTask {
                for await line in Self.standardInputLines() {
                    do { try await socket.send(.text(line)) } catch { return SwitchyardError.wrapping(error) }
                }
                await socket.close(code: 1000)
                return nil
            }
            // Reading ends at the server's close (or a failure): that ends the session.
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let outcome { fail(outcome) }
        let code = socket.closeCode ?? 1006
        guard code == 1000 || code == 1001 else {
            FileHandle.standardError.write(Data("error: closed with \(code): \(socket.closeReason ?? "")\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Prints each message; returns the error that ended reading, if any.
    private static func printMessages(of socket: WebSocket) async -> SwitchyardError? {
        do {
            for try await message in socket {
                switch message {
                case .text(let text): FileHandle.standardOutput.write(Data((text + "\n").utf8))
                case .binary(let bytes): FileHandle.standardOutput.write(Data(("binary:" + Data(bytes).base64EncodedString() + "\n").utf8))
                }
            }
            return nil
        } catch {
            return SwitchyardError.wrapping(error)
        }
    }

    /// Standard input's lines, read on a thread of their own (reading blocks).
    private static func standardInputLines() -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            reader.start()
        }
    }

    private func fail(_ error: SwitchyardError) -> Never {
        FileHandle.standardError.write(Data("error: \(error.kind.rawValue): \(error.message)\n".utf8))
        Foundation.exit(1)
    }
}
