import HTTPTypes
public import SwitchyardCore
import SwitchyardStandardLinks

extension Client {
    /// The events of a `text/event-stream` at `request`'s URL, reconnecting as a browser's
    /// `EventSource` does.
    ///
    /// ```swift
    /// for try await event in client.serverSentEvents(try Request(url: "https://example.com/updates")) {
    ///     print(event.type, event.data)
    /// }
    /// ```
    ///
    /// Each connection is one request through the whole chain (headers, credentials, tracing), with
    /// `Accept: text/event-stream` and, after the first event ID, `Last-Event-ID`. When a connection
    /// ends or fails, the sequence waits (the server's `retry:`, doubling while reconnections deliver
    /// nothing, capped) and reconnects; a partly received event is dropped, never delivered torn. A
    /// `204` ends the sequence. Any other status than `200`, whatever its content type, or a `200`
    /// of another content type, ends it with
    /// ``SwitchyardCore/SwitchyardError/Kind/eventStreamRejected`` naming the status, without
    /// reconnecting (the WHATWG rules), whether or not the chain validates statuses: the stream
    /// judges the status itself (`options.validation` is `StatusValidation.everyStatus`
    /// for its connections, so the status-validation link neither throws `httpStatus` nor waits for
    /// an excerpt of an error stream that stays open), and its connections are not retried by the
    /// retry link unless the request sets its own `options.retry`. The rejection is published as a
    /// failed event (and a pop-up, where the chain has a policy). Reading is pulled: a slow reader
    /// leaves the bytes in the connection. Cancelling the reading task closes the connection.
    /// - Parameters:
    ///   - request: The request of each connection (`GET`, usually).
    ///   - options: Bounds and reconnection.
    /// - Returns: The events.
    public func serverSentEvents(_ request: Request, options: EventStreamOptions = EventStreamOptions()) -> ServerSentEvents {
        ServerSentEvents(client: self, request: request, options: options)
    }
}

/// The events of an event stream, across reconnections (``SwitchyardCore/Client/serverSentEvents(_:options:)``).
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// An event.
    public typealias Element = ServerSentEvent

    let client: Client
    let request: Request
    let options: EventStreamOptions

    /// Starts reading: the first connection is made by the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, request: request, options: options)
    }

    /// Reads events, connecting and reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
        private let client: Client
        private let request: Request
        private let options: EventStreamOptions
        private var parser: EventStreamParser
        private var body: HTTPBody.AsyncIterator?
        private var ready: [ServerSentEvent] = []
        private var readyIndex = 0
        private var failures = 0
        private var finished = false

        init(client: Client, request: Request, options: EventStreamOptions) {
            self.client = client
            self.request = request
            self.options = options
            self.parser = EventStreamParser(maximumEventBytes: options.maximumEventBytes)
        }

        /// The next event, or `nil` once the server answered `204`.
        /// - Throws: A `SwitchyardError`: the stream was rejected, an event was too large,
        ///   reconnecting failed ``EventStreamOptions/maximumReconnections`` times in a row, or the task
        ///   was cancelled.
        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if readyIndex < ready.count {
                    defer { readyIndex += 1 }
                    return ready[readyIndex]
                }
                if finished { return nil }
                do {
                    guard var reading = body else {
                        try await connect()
                        continue
                    }
                    body = nil
                    guard let chunk = try await reading.next() else {
                        try await waitToReconnect(after: nil)
                        continue
                    }
                    body = reading
                    ready = try parser.feed(chunk)
                    readyIndex = 0
                    if !ready.isEmpty { failures = 0 }
                } catch let error as SwitchyardError where Self.reconnects(after: error) {
                    body = nil
                    try await waitToReconnect(after: error)
                } catch {
                    body = nil
                    finished = true
                    throw SwitchyardError.wrapping(error)
                }
            }
        }

        /// Network trouble reconnects; an answer that is not an event stream, a bound, or a
        /// cancellation does not.
        private static func reconnects(after error: SwitchyardError) -> Bool {
            [.connectionFailed, .timeout, .protocolViolation, .transport].contains(error.kind)
        }

        private mutating func connect() async throws {
            var attempt = request
            if attempt.head.headerFields[.accept] == nil { attempt.head.headerFields[.accept] = "text/event-stream" }
            attempt.head.headerFields[.cacheControl] = "no-cache"
            if let id = parser.lastEventID { attempt.head.headerFields[Self.lastEventID] = id }
            // The stream judges the status itself (only 200 is a stream, 204 the end): the chain's
            // status validation must neither turn a rejection into `httpStatus` nor read an error
            // stream that stays open for its excerpt; and no other status is tried again.
            attempt.options.validation = .everyStatus
            if attempt.options.retry == nil { attempt.options.retry = .disabled }
            let response: StreamedResponse
            do {
                response = try await client.stream(attempt)
            } catch {
                // A validation link of the app's own that ignores the option: still a rejection.
                guard error.kind == .httpStatus, let head = error.response else { throw error }
                throw Self.rejection(head, request: attempt, attempt: error.attempt)
            }
            if response.head.status == .noContent {
                finished = true
                return
            }
            let contentType = response.head.headerFields[.contentType]
            let mediaType = contentType.map { value in
                value[..<(value.firstIndex(of: ";") ?? value.endIndex)].trimmingSpaces().lowercased()
            }
            guard response.head.status == .ok, mediaType == "text/event-stream" else {
                let error = Self.rejection(response.head, request: attempt, attempt: response.context.attempt)
                client.reportFailure(error, of: attempt, context: response.context)
                throw error
            }
            parser.startStream()
            body = response.body.makeAsyncIterator()
        }

        /// The ``SwitchyardCore/SwitchyardError/Kind/eventStreamRejected`` error for `head`, carrying
        /// the request and the response head.
        private static func rejection(_ head: HTTPResponse, request: Request, attempt: Int?) -> SwitchyardError {
            var error = SwitchyardError.eventStreamRejected(status: head.status.code, contentType: head.headerFields[.contentType])
            error.request = request.head
            error.response = head
            error.attempt = attempt
            return error
        }

        private mutating func waitToReconnect(after error: SwitchyardError?) async throws {
            failures += 1
            if failures > options.maximumReconnections {
                finished = true
                throw error
                    ?? SwitchyardError.connectionFailed(
                        "The event stream ended \(failures) times in a row without an event; giving up.")
            }
            do {
                try await Task.sleep(for: options.delay(afterFailures: failures, retryMilliseconds: parser.retryMilliseconds))
            } catch {
                finished = true
                throw SwitchyardError.wrapping(error)
            }
        }

        /// `Last-Event-ID`.
        private static let lastEventID = HTTPField.Name("Last-Event-ID")!
    }
}
