import HTTPTypes
import SwitchyardCore

/// Collects the parts of one exchange as they pass through a ``RecordingTransport`` and writes its file once.
///
/// The request body and the response body are recorded by taps as their readers pull them (the transport
/// reads the request body, the caller reads the response body), so nothing is read ahead. The file is
/// written exactly once: when the response body ends, when the exchange fails, or — if the caller drops
/// the body before its end — when the last reference to the body goes away (``RecordedOutcome/abandoned``).
final class ExchangeRecorder: Sendable {
    private struct State {
        var requestBody: [UInt8]?
        var requestBodyComplete = false
        var response: HTTPResponse?
        var responseBody: [UInt8]?
        var isWritten = false
    }

    private let sequence: Int
    private let request: HTTPRequest
    private let store: RecordingStore
    private let state: Lock<State>

    init(sequence: Int, request: Request, store: RecordingStore) {
        self.sequence = sequence
        self.request = request.head
        self.store = store
        var initial = State()
        if let bytes = request.body?.bufferedBytes {
            initial.requestBody = Array(bytes)
            initial.requestBodyComplete = true
        } else if request.body != nil {
            initial.requestBody = []  // a stream: filled as the transport reads it
        }
        self.state = Lock(initial)
    }

    deinit {
        // The caller dropped a body it had not finished: record what it read. Errors cannot be thrown here.
        try? finish(.abandoned, error: nil)
    }

    // MARK: - Events

    /// The response head arrived; `hasBody` says whether a body follows.
    func responseHeadReceived(_ head: HTTPResponse, hasBody: Bool) {
        state.withLock {
            $0.response = head
            $0.responseBody = hasBody ? [] : nil
        }
    }

    /// Writes the file with `outcome`, unless it was already written.
    /// - Throws: ``SwitchyardError/Kind/transport`` when the file cannot be written.
    func finish(_ outcome: RecordedOutcome, error: (any Error)?) throws {
        let exchange: RecordedExchange? = state.withLock { state in
            guard !state.isWritten else { return nil }
            state.isWritten = true
            return makeExchange(state, outcome: outcome, error: error)
        }
        if let exchange { try store.write(exchange) }
    }

    private func makeExchange(_ state: State, outcome: RecordedOutcome, error: (any Error)?) -> RecordedExchange {
        let redacted = store.redactedHeaderNames
        let requestBody = state.requestBody.map { RecordedBody(bytes: $0, complete: state.requestBodyComplete) }
        let response = state.response.map { head in
            RecordedResponse(
                head,
                body: state.responseBody.map { RecordedBody(bytes: $0, complete: outcome == .completed) },
                redacting: redacted
            )
        }
        return RecordedExchange(
            sequence: sequence,
            request: RecordedRequest(
                request, body: requestBody, redacting: redacted,
                redactingQuery: store.queryRedaction),
            response: response,
            outcome: outcome,
            error: error.map(RecordedError.init)
        )
    }

    // MARK: - Taps

    /// Records the request body as the transport reads it; each new iteration starts the record afresh.
    var requestBodyTap: some BodyTap { RequestTap(recorder: self) }

    /// Records the response body as the caller reads it, and writes the file when it ends or fails.
    var responseBodyTap: some BodyTap { ResponseTap(recorder: self) }

    private struct RequestTap: BodyTap {
        let recorder: ExchangeRecorder

        func iterationStarted() {
            recorder.state.withLock {
                $0.requestBody = []
                $0.requestBodyComplete = false
            }
        }

        func received(_ chunk: ArraySlice<UInt8>) {
            recorder.state.withLock { $0.requestBody?.append(contentsOf: chunk) }
        }

        func ended() {
            recorder.state.withLock { $0.requestBodyComplete = true }
        }

        func failed(_ error: SwitchyardError) {}
    }

    private struct ResponseTap: BodyTap {
        let recorder: ExchangeRecorder

        func iterationStarted() {}

        func received(_ chunk: ArraySlice<UInt8>) {
            recorder.state.withLock { state in
                // After the file is written (a replayable body read again), nothing more is kept.
                guard !state.isWritten else { return }
                state.responseBody?.append(contentsOf: chunk)
            }
        }

        func ended() throws {
            try recorder.finish(.completed, error: nil)
        }

        func failed(_ error: SwitchyardError) {
            try? recorder.finish(.failed, error: error)
        }
    }
}
