/// One exchange saved by ``RecordingTransport`` and served by ``ReplayingTransport``: the JSON file format.
///
/// Each exchange is one human-readable JSON file (pretty-printed, keys sorted; shown compacted here).
/// Header fields keep their order, repeats and case.
/// Bodies are UTF-8 text when they are valid UTF-8, base64 otherwise:
///
/// ```json
/// {
///   "outcome" : "completed",
///   "request" : {
///     "authority" : "127.0.0.1:8080",
///     "headers" : [ { "name" : "Authorization", "value" : "<redacted>" } ],
///     "method" : "GET",
///     "path" : "/users/42",
///     "scheme" : "http"
///   },
///   "response" : {
///     "body" : { "byteCount" : 10, "complete" : true, "content" : "{\"id\":42}\n", "encoding" : "utf8" },
///     "headers" : [ { "name" : "Content-Type", "value" : "application/json" } ],
///     "reason" : "OK",
///     "status" : 200
///   },
///   "sequence" : 1
/// }
/// ```
public struct RecordedExchange: Codable, Sendable, Hashable {
    /// The exchange's position in the recording, from 1: replays serve matching exchanges in this order.
    public var sequence: Int
    /// The request as it was sent.
    public var request: RecordedRequest
    /// The response head and body, or `nil` when the exchange failed before a response head arrived.
    public var response: RecordedResponse?
    /// How the exchange ended.
    public var outcome: RecordedOutcome
    /// The error that ended the exchange, when ``outcome`` is ``RecordedOutcome/failed``.
    public var error: RecordedError?

    /// Creates a recorded exchange.
    /// - Parameters:
    ///   - sequence: The position in the recording, from 1.
    ///   - request: The request.
    ///   - response: The response, if a head arrived.
    ///   - outcome: How the exchange ended.
    ///   - error: The error, for a failed exchange.
    public init(
        sequence: Int,
        request: RecordedRequest,
        response: RecordedResponse?,
        outcome: RecordedOutcome,
        error: RecordedError? = nil
    ) {
        self.sequence = sequence
        self.request = request
        self.response = response
        self.outcome = outcome
        self.error = error
    }
}

/// How a recorded exchange ended.
public enum RecordedOutcome: String, Codable, Sendable, Hashable {
    /// The response body was read to its end.
    case completed
    /// The exchange failed: before the head (``RecordedExchange/response`` is `nil`) or while the body streamed.
    case failed
    /// The caller stopped reading the body before its end; the body holds what was read.
    case abandoned
}

/// A recorded request: method, target, header fields in order, and the body bytes that were sent.
public struct RecordedRequest: Codable, Sendable, Hashable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The scheme, e.g. `https`.
    public var scheme: String?
    /// The authority, e.g. `api.example.com:8443`.
    public var authority: String?
    /// The path with its query, e.g. `/search?q=swift`; credential query values read
    /// `<redacted>` (`/files?X-Amz-Signature=<redacted>`).
    public var path: String
    /// The header fields in order; redacted values read `<redacted>`.
    public var headers: [RecordedHeader]
    /// The body bytes the transport read, or `nil` for a request without a body.
    public var body: RecordedBody?

    /// Creates a recorded request.
    /// - Parameters:
    ///   - method: The method.
    ///   - scheme: The scheme.
    ///   - authority: The authority.
    ///   - path: The path with its query.
    ///   - headers: The header fields in order.
    ///   - body: The body, if any.
    public init(
        method: String,
        scheme: String?,
        authority: String?,
        path: String,
        headers: [RecordedHeader],
        body: RecordedBody?
    ) {
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.headers = headers
        self.body = body
    }
}

/// A recorded response: status, reason phrase, header fields in order, and the body bytes the caller read.
public struct RecordedResponse: Codable, Sendable, Hashable {
    /// The status code, e.g. `200`.
    public var status: Int
    /// The reason phrase, e.g. `OK`.
    public var reason: String
    /// The header fields in order; redacted values read `<redacted>`.
    public var headers: [RecordedHeader]
    /// The body, or `nil` for a response without one (e.g. to `HEAD`).
    public var body: RecordedBody?

    /// Creates a recorded response.
    /// - Parameters:
    ///   - status: The status code.
    ///   - reason: The reason phrase.
    ///   - headers: The header fields in order.
    ///   - body: The body, if any.
    public init(status: Int, reason: String, headers: [RecordedHeader], body: RecordedBody?) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }
}

/// One header field, with the name's case as sent or received.
public struct RecordedHeader: Codable, Sendable, Hashable {
    /// The field name, e.g. `Content-Type`.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The field value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Body bytes stored as UTF-8 text when they are valid UTF-8, as base64 otherwise.
public struct RecordedBody: Codable, Sendable, Hashable {
    /// How ``content`` holds the bytes.
    public enum Encoding: String, Codable, Sendable, Hashable {
        /// `content` is the text itself.
        case utf8
        /// `content` is the bytes in base64.
        case base64
    }

    /// How ``content`` holds the bytes.
    public var encoding: Encoding
    /// The bytes as text or base64.
    public var content: String
    /// How many bytes the body holds (for people reading the file; the content is authoritative).
    public var byteCount: Int
    /// `false` when the body ended early: the exchange failed or was abandoned mid-body.
    public var complete: Bool

    /// Creates a recorded body.
    /// - Parameters:
    ///   - encoding: How `content` holds the bytes.
    ///   - content: The bytes as text or base64.
    ///   - byteCount: The number of bytes.
    ///   - complete: Whether the body was read to its end.
    public init(encoding: Encoding, content: String, byteCount: Int, complete: Bool) {
        self.encoding = encoding
        self.content = content
        self.byteCount = byteCount
        self.complete = complete
    }
}

/// The error that ended a recorded exchange.
public struct RecordedError: Codable, Sendable, Hashable {
    /// The `SwitchyardError.Kind` raw value, e.g. `timeout`.
    public var kind: String
    /// The error's message.
    public var message: String

    /// Creates a recorded error.
    /// - Parameters:
    ///   - kind: The error kind's raw value.
    ///   - message: The error's message.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }
}
