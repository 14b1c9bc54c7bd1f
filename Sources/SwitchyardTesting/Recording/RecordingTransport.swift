public import Foundation
public import HTTPTypes
public import SwitchyardCore

/// A transport that passes every exchange through to a real one and saves it to a directory,
/// one human-readable JSON file per exchange, for ``ReplayingTransport`` to serve later.
///
/// ```swift
/// let directory = URL(fileURLWithPath: "Fixtures/profile-screen")
/// let recorder = try RecordingTransport(wrapping: CurlTransport(), directory: directory)
/// let client = Client(transport: recorder)
/// _ = try await client.send(try Request(url: "https://api.example.com/users/42",
///                                       headers: ["Authorization": "Bearer secret"]))
/// // Fixtures/profile-screen/0001-GET-users_42.json now holds the exchange, with
/// // "Authorization": "<redacted>".
///
/// let replay = try ReplayingTransport(directory: directory)   // later, offline
/// ```
///
/// What is recorded (see ``RecordedExchange`` for the file format):
/// - the request's method, scheme, authority, path with query, header fields in order, and the body
///   bytes the wrapped transport read — a streamed single-use body is recorded as it streams through,
///   never read ahead or twice, so the wrapped transport still receives it intact;
/// - the response's status, reason phrase, header fields in order, and the body bytes as the caller
///   reads them — nothing is buffered before the response is returned, so streaming and back-pressure
///   are unchanged;
/// - how the exchange ended: completed, failed (with the error's kind and message), or abandoned.
///
/// The file is written when the response body ends (before the caller's last read returns), when the
/// exchange fails, or when the caller drops an unfinished body. Files are named
/// `0001-GET-users_42.json`: sequence number, method, sanitized path. Numbering starts at 1 for each
/// recording transport and replaces files of the same name: record into a fresh directory.
///
/// Header values named in ``Configuration/redactedHeaderNames`` (by default `Authorization`,
/// `Proxy-Authorization`, `Cookie` and `Set-Cookie`) are written as `<redacted>`, and so are the
/// values of the query parameters in ``Configuration/redactedQueryParameters`` (by default
/// `Redaction.defaultQueryParameters`: `token`, `api_key`, `X-Amz-Signature`, …)
/// in the recorded path; the wrapped transport and the caller still see the real values. Bodies are recorded as they are: a response
/// that repeats a secret in its body (an echo endpoint, a token response) writes it to the file.
public final class RecordingTransport: Transport {
    /// What to record and how.
    public struct Configuration: Sendable {
        /// Header names whose values are never written: `Authorization`, `Proxy-Authorization`,
        /// `Cookie`, `Set-Cookie`.
        public static let defaultRedactedHeaderNames: Set<HTTPField.Name> = [
            .authorization, .proxyAuthorization, .cookie, .setCookie
        ]

        /// Header names whose values are written as `<redacted>`, in requests and responses.
        public var redactedHeaderNames: Set<HTTPField.Name>
        /// Query parameter names (any case) whose values are written as `<redacted>` in the recorded
        /// path; `[]` records paths as they are.
        public var redactedQueryParameters: Set<String>

        /// Creates a configuration.
        /// - Parameters:
        ///   - redactedHeaderNames: The header names to redact; add your own secret headers
        ///     (e.g. `HTTPField.Name("X-Api-Key")!`) to the defaults.
        ///   - redactedQueryParameters: The query parameter names to redact; add your own to the
        ///     defaults, or pass `[]` to opt out.
        public init(
            redactedHeaderNames: Set<HTTPField.Name> = Self.defaultRedactedHeaderNames,
            redactedQueryParameters: Set<String> = Redaction.defaultQueryParameters
        ) {
            self.redactedHeaderNames = redactedHeaderNames
            self.redactedQueryParameters = redactedQueryParameters
        }
    }

    private let wrapped: any Transport
    private let store: RecordingStore

    /// Creates a recording transport, creating `directory` if needed.
    /// - Parameters:
    ///   - transport: The transport that performs the exchanges.
    ///   - directory: Where the exchange files go.
    ///   - configuration: What to redact.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when the directory cannot be created.
    public init(
        wrapping transport: any Transport,
        directory: URL,
        configuration: Configuration = Configuration()
    ) throws(SwitchyardError) {
        self.wrapped = transport
        self.store = try RecordingStore(
            directory: directory, redactedHeaderNames: configuration.redactedHeaderNames,
            queryRedaction: QueryRedaction(parameterNames: configuration.redactedQueryParameters))
    }

    /// The directory the exchange files are written to.
    public var directory: URL { store.directory }

    /// The files written so far, in the order they were written (which can differ from sequence
    /// order when exchanges overlap).
    public var recordedFiles: [URL] { store.files }

    /// The recorded transport's executor, so tasks that prefer it still run where its I/O does.
    public var taskExecutor: (any TaskExecutor)? { wrapped.taskExecutor }

    /// Sends `request` through the wrapped transport and records the exchange.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context, passed on unchanged.
    /// - Returns: The wrapped transport's response; its body records itself as it is read.
    /// - Throws: The wrapped transport's error, unchanged (it is recorded first); or
    ///   `SwitchyardError.Kind.transport` when a response without body cannot be written.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        let recorder = ExchangeRecorder(sequence: store.nextSequence(), request: request, store: store)
        var forwarded = request
        if let body = request.body, body.bufferedBytes == nil {
            forwarded.body = body.tapped(by: recorder.requestBodyTap)
        }
        var response: Response
        do {
            response = try await wrapped.send(forwarded, context: context)
        } catch {
            try? recorder.finish(.failed, error: error)
            throw error
        }
        recorder.responseHeadReceived(response.head, hasBody: response.body != nil)
        if let body = response.body {
            response.body = body.tapped(by: recorder.responseBodyTap)
        } else {
            try recorder.finish(.completed, error: nil)
        }
        return response
    }
}
