public import Foundation
import HTTPTypes
public import SwitchyardCore

extension HTTPBody {
    /// The body read as JSON lines (NDJSON): one `Value` decoded from each line, as the lines arrive.
    ///
    /// ```swift
    /// let response = try await client.stream(try Request(url: "https://example.com/export.ndjson"))
    /// for try await item in response.body.jsonLines(of: Item.self) { print(item) }
    /// ```
    ///
    /// Lines end with LF or CRLF; blank lines are skipped; the last line needs no line end. A line
    /// that does not decode ends the sequence with `SwitchyardError.Kind.decoding`
    /// naming its line number; a line longer than `maximumLineBytes` with
    /// ``SwitchyardCore/SwitchyardError/Kind/eventTooLarge``, without buffering the rest.
    ///
    /// A body knows nothing of its status: an error's body reads here as lines (an empty one as no
    /// lines at all) unless the chain validates statuses. Read the response's lines instead
    /// (``SwitchyardCore/StreamedResponse/jsonLines(of:decoder:maximumLineBytes:)``) to fail on an
    /// error status whatever the chain.
    /// - Parameters:
    ///   - type: The type of each line's value.
    ///   - decoder: The decoder (default a plain `JSONDecoder`).
    ///   - maximumLineBytes: The bound on one line (default 1 MiB).
    /// - Returns: The values.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type, decoder: JSONDecoder = JSONDecoder(), maximumLineBytes: Int = 1 << 20
    ) -> JSONLines<Value> {
        JSONLines(body: self, decoder: decoder, maximumLineBytes: maximumLineBytes, rejection: nil)
    }
}

extension StreamedResponse {
    /// The response's body read as JSON lines (NDJSON), as the lines arrive, once its status says the
    /// body is the answer: a status outside 200–299 ends the sequence at its first step with
    /// `SwitchyardError.Kind.httpStatus` naming the status, without reading the body, so an error
    /// never reads as values, nor an empty error as an empty success. A `204` has no lines.
    ///
    /// ```swift
    /// let response = try await client.stream(try Request(url: "https://example.com/export.ndjson"))
    /// for try await item in response.jsonLines(of: Item.self) { print(item) }
    /// ```
    ///
    /// Lines are read as ``SwitchyardCore/HTTPBody/jsonLines(of:decoder:maximumLineBytes:)`` reads them.
    /// - Parameters:
    ///   - type: The type of each line's value.
    ///   - decoder: The decoder (default a plain `JSONDecoder`).
    ///   - maximumLineBytes: The bound on one line (default 1 MiB).
    /// - Returns: The values.
    public func jsonLines<Value: Decodable & Sendable>(
        of type: Value.Type, decoder: JSONDecoder = JSONDecoder(), maximumLineBytes: Int = 1 << 20
    ) -> JSONLines<Value> {
        var rejection: SwitchyardError?
        if head.status.kind != .successful {
            var error = SwitchyardError.httpStatus(
                "The server answered \(head.status.code) \(head.status.reasonPhrase), not JSON lines.", response: head)
            error.attempt = context.attempt
            rejection = error
        }
        return JSONLines(body: body, decoder: decoder, maximumLineBytes: maximumLineBytes, rejection: rejection)
    }
}

/// The values of a JSON-lines body (``SwitchyardCore/HTTPBody/jsonLines(of:decoder:maximumLineBytes:)``).
public struct JSONLines<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    /// A decoded line.
    public typealias Element = Value

    let body: HTTPBody
    let decoder: JSONDecoder
    let maximumLineBytes: Int
    /// The error the first step throws instead of reading: the response's status was an error.
    let rejection: SwitchyardError?

    /// Starts reading the body.
    public func makeAsyncIterator() -> Iterator {
        Iterator(body: body.makeAsyncIterator(), decoder: decoder, maximumLineBytes: maximumLineBytes, rejection: rejection)
    }

    /// Reads lines and decodes them.
    public struct Iterator: AsyncIteratorProtocol {
        private var body: HTTPBody.AsyncIterator
        private let decoder: JSONDecoder
        private let maximumLineBytes: Int
        private var buffer: [UInt8] = []
        /// Where the unread lines start in `buffer`.
        private var start = 0
        /// How far `buffer` has been searched for a line end.
        private var scanned = 0
        private var lineNumber = 0
        private var ended = false
        private var rejection: SwitchyardError?

        init(body: HTTPBody.AsyncIterator, decoder: JSONDecoder, maximumLineBytes: Int, rejection: SwitchyardError?) {
            self.body = body
            self.decoder = decoder
            self.maximumLineBytes = maximumLineBytes
            self.rejection = rejection
        }

        /// The next line's value, or `nil` at the end of the body.
        /// - Throws: `SwitchyardError`: `httpStatus` for a response whose status is an error (read
        ///   through ``SwitchyardCore/StreamedResponse/jsonLines(of:decoder:maximumLineBytes:)``),
        ///   `decoding` with the line number, `eventTooLarge`, or the body's own error.
        public mutating func next() async throws -> Value? {
            if let rejection {
                self.rejection = nil
                ended = true
                start = buffer.count
                throw rejection
            }
            while true {
                if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                    var line = buffer[start..<newline]
                    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                    if line.count > maximumLineBytes { throw SwitchyardError.eventTooLarge(limit: maximumLineBytes) }
                    start = newline + 1
                    scanned = start
                    lineNumber += 1
                    if let value = try decode(line) { return value }
                    continue
                }
                scanned = buffer.count
                if buffer.count - start > maximumLineBytes { throw SwitchyardError.eventTooLarge(limit: maximumLineBytes) }
                if ended {
                    guard start < buffer.count else { return nil }
                    let line = buffer[start...]
                    start = buffer.count
                    lineNumber += 1
                    return try decode(line)
                }
                // Drop the lines already read before reading more, so the buffer holds one line at most.
                buffer.removeSubrange(..<start)
                scanned -= start
                start = 0
                if let chunk = try await body.next() {
                    buffer.append(contentsOf: chunk)
                } else {
                    ended = true
                }
            }
        }

        /// The value of a line; `nil` for a blank one.
        private func decode(_ line: ArraySlice<UInt8>) throws -> Value? {
            guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return nil }
            do {
                return try decoder.decode(Value.self, from: Data(line))
            } catch {
                throw SwitchyardError.decoding(
                    "Line \(lineNumber) of the JSON-lines body is not a \(Value.self): \(error)", underlyingError: error)
            }
        }
    }
}
