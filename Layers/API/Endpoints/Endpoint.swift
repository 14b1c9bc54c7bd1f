public import HTTPTypes
public import SwitchyardCore
public import SwitchyardStandardLinks

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One API call, described once and sent through an ``APIClient`` relative to its base URL:
/// method, path with parameters, query, headers, body, the response model and where it sits in
/// the JSON, what counts as success, and per-call options.
///
/// ```swift
/// let books = Endpoint<[Book]>(.get, "/shelves/{shelf}/books", at: "data.list")
///     .parameter("shelf", "fiction")
///     .query("page", "1")
///     .tags("library")
///     .timeout(.seconds(10))
///     .sample(json: #"{"data": {"list": []}}"#)
///
/// let handle = api.call(books)               // running; cancel() from anywhere
/// let list = try await handle.value
/// ```
///
/// Endpoints are values: make variations with the modifiers (`parameter`, `query`, `header`,
/// `body`, `tags`, `timeout`, `retrying`, `silent`, `sample`, …) or by setting the properties.
public struct Endpoint<Value: Sendable>: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path relative to the base URL, with `{name}` placeholders, e.g. `/users/{id}`; also the
    /// endpoint's template in statistics and sample routing.
    public var path: String
    /// Values for the path's placeholders (percent-encoded when sent).
    public var pathParameters: [String: String]
    /// Query parameters, in order.
    public var query: [QueryItem]
    /// Header fields added to the request.
    public var headers: HTTPFields
    /// The request body.
    public var body: RequestBody
    /// Makes the JSON encoder for ``RequestBody/json(_:)`` bodies.
    public var makeEncoder: @Sendable () -> JSONEncoder
    /// How the body becomes a `Value`.
    public var decoding: ResponseDecoding<Value>
    /// The statuses that count as success (default 200–299); others fail with
    /// `SwitchyardError.Kind.httpStatus`.
    public var successStatuses: Set<Int>
    /// The content types the endpoint accepts (default JSON); checked before decoding.
    public var accepts: MediaTypeSet
    /// The API's envelope for this endpoint; `nil` uses the client's envelope for its scope.
    public var envelope: Envelope?
    /// Tags for department plugins, scopes and statistics.
    public var tags: Set<String>
    /// A timeout for the whole call (`nil`: the client's).
    public var timeout: Duration?
    /// A change to the retry policy for this endpoint (e.g. `.allowingNonIdempotentRetry` to opt a POST in, `.disabled`).
    public var retry: RetryOverride?
    /// Whether failures stay quiet (no pop-up).
    public var isSilent: Bool
    /// Canned responses for building screens before the API exists (see ``SampleTransport``).
    public var samples: [SampleResponse]
    /// The error model a failed response's body is decoded into (else the API client's, else
    /// problem documents).
    public var errorModel: ErrorModel?
    /// How many bytes of the raw body a successful call keeps in ``ResponseInfo/rawBody``; `nil`: none.
    public var rawBodyLimit: Int?
    /// Changes to the request options of every call, applied after the endpoint's own settings
    /// (see ``options(_:)``); `nil`: none.
    public var adjustOptions: (@Sendable (inout RequestOptions) -> Void)?

    /// Creates an endpoint whose value is decoded from JSON at `keyPath`.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path with `{name}` placeholders.
    ///   - keyPath: Where the model sits in the JSON (`""`: the whole document).
    ///   - decoding: The `JSONDecoder` settings.
    public init(
        _ method: HTTPRequest.Method = .get, _ path: String, at keyPath: JSONPath = JSONPath(segments: []),
        decoding: JSONDecoding = .standard
    ) where Value: Decodable {
        self.init(method, path, decoding: .json(at: keyPath, using: decoding))
    }

    /// Creates an endpoint whose list is decoded from JSON at `keyPath`, leaving out elements that
    /// fail to decode when `skippingInvalidElements` (each in ``ResponseInfo/decodingReport``).
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path with `{name}` placeholders.
    ///   - keyPath: Where the list sits in the JSON.
    ///   - decoding: The `JSONDecoder` settings.
    ///   - skippingInvalidElements: Whether a bad element is skipped rather than failing the call.
    public init<Element: Decodable & Sendable>(
        _ method: HTTPRequest.Method = .get, _ path: String, at keyPath: JSONPath = JSONPath(segments: []),
        decoding: JSONDecoding = .standard, skippingInvalidElements: Bool
    ) where Value == [Element] {
        self.init(method, path, decoding: .json(at: keyPath, using: decoding, skippingInvalidElements: skippingInvalidElements))
    }

    /// Creates an endpoint with any way of turning the body into a value.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path with `{name}` placeholders.
    ///   - decoding: How the body becomes a value (see ``ResponseDecoding``).
    public init(_ method: HTTPRequest.Method = .get, _ path: String, decoding: ResponseDecoding<Value>) {
        self.method = method
        self.path = path
        self.pathParameters = [:]
        self.query = []
        self.headers = HTTPFields()
        self.body = .none
        self.makeEncoder = { JSONEncoder() }
        self.decoding = decoding
        self.successStatuses = Set(200...299)
        self.accepts = decoding.defaultAccepts
        self.envelope = nil
        self.tags = []
        self.timeout = nil
        self.retry = nil
        self.isSilent = false
        self.samples = []
        self.errorModel = nil
        self.rawBodyLimit = nil
        self.adjustOptions = nil
    }
}

// MARK: - Modifiers

extension Endpoint {
    /// A copy whose calls set plugins' request options (a cache policy, a priority, coalescing …);
    /// several calls add up, in order.
    ///
    /// ```swift
    /// let feed = Endpoint<[Headline]>(.get, "/news/feed").options { $0.priority = .high }
    /// ```
    /// - Parameter adjust: Changes the options; runs after the endpoint's own settings.
    /// - Returns: The endpoint.
    public func options(_ adjust: @escaping @Sendable (inout RequestOptions) -> Void) -> Self {
        changing { endpoint in
            let earlier = endpoint.adjustOptions
            endpoint.adjustOptions = { options in
                earlier?(&options)
                adjust(&options)
            }
        }
    }

    /// A copy with a value for the path placeholder `{name}`.
    /// - Parameters:
    ///   - name: The placeholder's name.
    ///   - value: Its value.
    /// - Returns: The changed endpoint.
    public func parameter(_ name: String, _ value: some CustomStringConvertible) -> Self {
        changing { $0.pathParameters[name] = value.description }
    }

    /// A copy with a query parameter appended.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value (`nil`: a bare name).
    /// - Returns: The changed endpoint.
    public func query(_ name: String, _ value: (some CustomStringConvertible)?) -> Self {
        changing { $0.query.append(QueryItem(name, value?.description)) }
    }

    /// A copy with a header field added.
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    /// - Returns: The changed endpoint.
    public func header(_ name: HTTPField.Name, _ value: String) -> Self {
        changing { $0.headers.append(HTTPField(name: name, value: value)) }
    }

    /// A copy with this request body.
    /// - Parameter body: The body.
    /// - Returns: The changed endpoint.
    public func body(_ body: RequestBody) -> Self { changing { $0.body = body } }

    /// A copy whose statuses in `statuses` count as success.
    /// - Parameter statuses: E.g. `[200, 201, 304]`.
    /// - Returns: The changed endpoint.
    public func succeeding(on statuses: Set<Int>) -> Self { changing { $0.successStatuses = statuses } }

    /// A copy accepting these response content types.
    /// - Parameter types: The accepted types.
    /// - Returns: The changed endpoint.
    public func accepting(_ types: MediaTypeSet) -> Self { changing { $0.accepts = types } }

    /// A copy with this envelope.
    /// - Parameter envelope: The envelope.
    /// - Returns: The changed endpoint.
    public func envelope(_ envelope: Envelope?) -> Self { changing { $0.envelope = envelope } }

    /// A copy with these tags added.
    /// - Parameter tags: The tags.
    /// - Returns: The changed endpoint.
    public func tags(_ tags: String...) -> Self { changing { $0.tags.formUnion(tags) } }

    /// A copy with a timeout for the whole call.
    /// - Parameter timeout: The timeout.
    /// - Returns: The changed endpoint.
    public func timeout(_ timeout: Duration) -> Self { changing { $0.timeout = timeout } }

    /// A copy with a retry override, e.g. `.allowingNonIdempotentRetry` to let the retry interceptor repeat a POST
    /// that is safe to repeat, or `.disabled`.
    /// - Parameter override: The override.
    /// - Returns: The changed endpoint.
    public func retrying(_ override: RetryOverride) -> Self { changing { $0.retry = override } }

    /// A copy whose failures publish no pop-up.
    /// - Returns: The changed endpoint.
    public func silent() -> Self { changing { $0.isSilent = true } }

    /// Decodes a failed response's body into `model` (read it with
    /// ``SwitchyardCore/SwitchyardError/errorModel(as:)``).
    /// - Parameter model: The error model.
    /// - Returns: The changed endpoint.
    public func errorModel(_ model: ErrorModel) -> Self { changing { $0.errorModel = model } }

    /// Keeps the body as the server sent it beside the value (``ResponseInfo/rawBody``), to log or
    /// parse again, up to `limit` bytes.
    /// - Parameter limit: The most bytes kept (default 1 MiB).
    /// - Returns: The changed endpoint.
    public func keepingRawBody(upTo limit: Int = 1 << 20) -> Self { changing { $0.rawBodyLimit = max(limit, 0) } }

    /// Treats an empty value (`[]`, `{}`, `""`) as ``CallState/noData(_:)`` rather than a success,
    /// for a screen that shows "nothing here" the same way for both.
    /// - Returns: The changed endpoint.
    public func emptyMeansNoData() -> Self { changing { $0.decoding = $0.decoding.treatingEmptyAsNoData() } }

    /// A copy with a sample response appended.
    /// - Parameter sample: The sample.
    /// - Returns: The changed endpoint.
    public func sample(_ sample: SampleResponse) -> Self { changing { $0.samples.append(sample) } }

    /// A copy with a JSON sample response (status 200) appended.
    /// - Parameter json: The JSON text.
    /// - Returns: The changed endpoint.
    public func sample(json: String) -> Self { sample(.json(json)) }

    private func changing(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
