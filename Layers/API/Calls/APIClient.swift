import HTTPTypes
public import SwitchyardCore

/// Sends ``Endpoint``s through a `Client` relative to a base URL, with the department defaults
/// (``ParameterRule``s, envelopes) for each scope.
///
/// ```swift
/// let api = try APIClient(client: client, baseURL: "https://api.example.com/v1")
///
/// let user = try await api.value(Endpoint<User>(.get, "/users/{id}", at: "data").parameter("id", 42))
///
/// let handle = api.prepare(books)     // not started: cancel() now and it never touches the wire
/// handle.start()
/// for await state in handle.states { render(state) }
/// ```
public struct APIClient: Sendable {
    /// The client every call goes through (its chain, transport and events).
    public let client: Client
    /// The base URL endpoints' paths are appended to, without a trailing slash.
    public let baseURL: String
    /// Department defaults, applied in order.
    public var parameters: [ParameterRule]
    /// Envelopes by scope, for endpoints that declare none; the first matching scope wins.
    public var envelopes: [(scope: RequestScope, envelope: Envelope)]
    /// The error model of every endpoint that declares none (``Endpoint/errorModel(_:)``); without
    /// one, `application/problem+json` bodies are decoded as ``ProblemDetails``.
    public var errorModel: ErrorModel?

    /// Creates an API client.
    /// - Parameters:
    ///   - client: The client to send through.
    ///   - baseURL: An absolute `http` or `https` URL, e.g. `https://api.example.com/v1`.
    ///   - parameters: Department defaults.
    ///   - envelopes: Envelopes by scope.
    ///   - errorModel: The error model of endpoints that declare none.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` for a base URL that is not absolute.
    public init(
        client: Client, baseURL: String, parameters: [ParameterRule] = [],
        envelopes: [(scope: RequestScope, envelope: Envelope)] = [], errorModel: ErrorModel? = nil
    ) throws(SwitchyardError) {
        _ = try Request(url: baseURL)
        var base = Substring(baseURL)
        while base.hasSuffix("/") { base = base.dropLast() }
        self.client = client
        self.baseURL = String(base)
        self.parameters = parameters
        self.envelopes = envelopes
        self.errorModel = errorModel
    }

    /// A handle for a call of `endpoint` that has not started.
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - userInfo: The caller's labels, carried into events and the result.
    /// - Returns: The handle, in ``CallState/notStarted``.
    public func prepare<Value: Sendable>(_ endpoint: Endpoint<Value>, userInfo: [String: String] = [:]) -> CallHandle<Value> {
        CallHandle { await self.perform(endpoint, userInfo: userInfo) }
    }

    /// Starts a call of `endpoint`.
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - userInfo: The caller's labels, carried into events and the result.
    /// - Returns: The running handle.
    public func call<Value: Sendable>(_ endpoint: Endpoint<Value>, userInfo: [String: String] = [:]) -> CallHandle<Value> {
        let handle = prepare(endpoint, userInfo: userInfo)
        handle.start()
        return handle
    }

    /// Calls `endpoint` and returns its value with the response.
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - userInfo: The caller's labels.
    /// - Returns: The value and its response.
    /// - Throws: The call's `SwitchyardError`; `SwitchyardError.Kind.noData` when it carried no value.
    public func response<Value: Sendable>(_ endpoint: Endpoint<Value>, userInfo: [String: String] = [:])
        async throws(SwitchyardError) -> APIResponse<Value>
    {
        try await call(endpoint, userInfo: userInfo).response
    }

    /// Calls `endpoint` and returns its value.
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - userInfo: The caller's labels.
    /// - Returns: The value.
    /// - Throws: The call's `SwitchyardError`; `SwitchyardError.Kind.noData` when it carried no value.
    public func value<Value: Sendable>(_ endpoint: Endpoint<Value>, userInfo: [String: String] = [:])
        async throws(SwitchyardError) -> Value
    {
        try await response(endpoint, userInfo: userInfo).value
    }

    /// The request a call of `endpoint` sends (for inspection and tests).
    /// - Parameters:
    ///   - endpoint: The endpoint.
    ///   - userInfo: The caller's labels.
    /// - Returns: The request.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` for a missing path parameter, an invalid
    ///   header or a body that cannot be encoded.
    public func request<Value: Sendable>(for endpoint: Endpoint<Value>, userInfo: [String: String] = [:])
        throws(SwitchyardError) -> Request
    {
        try RequestBuilder(api: self, endpoint: endpoint, userInfo: userInfo).build()
    }

    /// The envelope for `endpoint`'s request: its own, else the first matching scope's.
    func envelope<Value>(for endpoint: Endpoint<Value>, request: Request) -> Envelope? {
        endpoint.envelope ?? envelopes.first { $0.scope.matches(request) }?.envelope
    }

    /// Runs one call to its final state (off the caller's actor: decoding large bodies never blocks it).
    @concurrent
    func perform<Value: Sendable>(_ endpoint: Endpoint<Value>, userInfo: [String: String]) async -> CallState<Value> {
        var sent: Request?
        var context: ExchangeContext?
        do throws(SwitchyardError) {
            let request = try request(for: endpoint, userInfo: userInfo)
            sent = request
            let response = try await client.send(request)
            context = response.context
            return try ResponseReader(endpoint: endpoint, envelope: envelope(for: endpoint, request: request))
                .read(response, request: request)
        } catch {
            context?.finishRecordingStages()
            if error.kind == .cancelled { return .cancelled }
            var error = error
            error.attachErrorModel(endpoint.errorModel ?? errorModel)
            // Failures found after the exchange (status, content type, envelope, decoding) are
            // published here; the chain has already published its own.
            if let sent, let context { client.reportFailure(error, of: sent, context: context) }
            return .failed(error)
        }
    }
}
