import HTTPTypes
public import SwitchyardCore

/// Pages of typed items from an ``Endpoint`` sent through an ``APIClient``: the department's
/// parameters and envelope, content-type checks, samples and cancellation all apply, and each page
/// is decoded in one pass where its ``JSONPageLayout`` says.
///
/// ```swift
/// let layout = JSONPageLayout(items: "data.items", id: "id", hasNext: "data.has_next", sizeParameter: "size")
/// let source = EndpointPageSource<Book>(api: api, endpoint: Endpoint(.get, "/books", decoding: .page(layout)), layout: layout)
/// let loader = PageLoader(source: source, identity: { $0.id }, rule: layout.hasNextRule, pageSize: 20)
/// ```
///
/// A 204 or an empty body is an empty page; a status outside the endpoint's success set, a wrong
/// content type or an envelope's error code fails the load (and the loader rolls the page back).
public struct EndpointPageSource<Item: Decodable & Sendable>: PageSource {
    /// The API client the pages are sent through.
    public let api: APIClient
    /// The endpoint of one page, without its page parameters.
    public let endpoint: Endpoint<Page<Item>>
    /// How pages are asked for and read.
    public let layout: JSONPageLayout
    /// The options of a quicker first answer for each page (a cache-only call), shown while the
    /// final call runs; `nil`: one call per page. Set by `cacheThenNetwork()` (trait `Cache`).
    public var interimOptions: (@Sendable (inout RequestOptions) -> Void)?

    /// Creates a source.
    /// - Parameters:
    ///   - api: The API client.
    ///   - endpoint: The page endpoint (its decoding, e.g. `.page(layout)`, reads one page).
    ///   - layout: The page parameter, size parameter and paths.
    public init(api: APIClient, endpoint: Endpoint<Page<Item>>, layout: JSONPageLayout) {
        self.api = api
        self.endpoint = endpoint
        self.layout = layout
    }

    /// Creates a source for `GET path` decoded by `layout`.
    /// - Parameters:
    ///   - api: The API client.
    ///   - path: The list's path.
    ///   - layout: The page parameter, size parameter and paths.
    public init(api: APIClient, path: String, layout: JSONPageLayout) {
        self.init(api: api, endpoint: Endpoint(.get, path, decoding: .page(layout)), layout: layout)
    }

    /// Loads one page; cancelling the calling task cancels the call. The page says where its
    /// response came from (``Page/source``, ``Page/age``).
    public func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<Item> {
        try await Self.page(of: api.call(endpoint(for: request)).result())
    }

    /// Loads one page, handing the answer of a quicker call with ``interimOptions`` (when set and
    /// it succeeds) to `interim` first; that call's failure (a cache miss) is not the load's.
    ///
    /// When the quicker call reached the network (its page's ``Page/source`` is `network` or
    /// `revalidated`, as a cache-only call that asks the network on a miss does), its page is the
    /// load's and no second call is made; when it failed on the network (a connection, TLS,
    /// timeout, transport or protocol failure, or a `500`, `502`, `503` or `504`), that failure is
    /// the load's.
    public func loadPage(_ request: PageRequest, interim: @Sendable (Page<Item>) async -> Void)
        async throws(SwitchyardError) -> Page<Item>
    {
        let endpoint = endpoint(for: request)
        if let interimOptions {
            let early = await api.call(endpoint.options(interimOptions)).result()
            switch early {
            case .cancelled: throw .cancelled
            case .failed(let error) where Self.failedOnTheNetwork(error): throw error
            default: break
            }
            if let page = try? Self.page(of: early) {
                guard page.source == .cache || page.source == .stale else { return page }
                await interim(page)
            }
        }
        return try await Self.page(of: api.call(endpoint).result())
    }

    /// Whether `error` is a failure only the network gives (a connection, TLS, timeout, transport
    /// or protocol failure, or a `500`, `502`, `503` or `504`): a quicker call that met one asked the
    /// network, and asking again is the retry policy's business.
    static func failedOnTheNetwork(_ error: SwitchyardError) -> Bool {
        switch error.kind {
        case .connectionFailed, .timeout, .transport, .tls, .protocolViolation: true
        case .httpStatus: [500, 502, 503, 504].contains(error.response?.status.code ?? 0)
        default: false
        }
    }

    /// The page a call's final state stands for.
    private static func page(of state: CallState<Page<Item>>) throws(SwitchyardError) -> Page<Item> {
        switch state {
        case .succeeded(let response):
            var page = response.value
            (page.source, page.age) = (response.info.source, response.info.age)
            page.decodingReport = response.info.decodingReport
            return page
        case .noData(let info):
            var page = Page<Item>.empty
            (page.source, page.age) = (info.source, info.age)
            return page
        case .failed(let error): throw error
        case .cancelled, .notStarted, .queued, .running, .waitingToRetry: throw .cancelled
        }
    }

    /// The endpoint with this page's parameters (replacing any of the same name).
    /// - Parameter request: The page asked for.
    /// - Returns: The endpoint to call.
    public func endpoint(for request: PageRequest) -> Endpoint<Page<Item>> {
        var parameters: [QueryItem] = []
        switch layout.pageParameter {
        case .number(let name): parameters.append(QueryItem(name, String(request.index)))
        case .offset(let name): parameters.append(QueryItem(name, String(request.offset)))
        case .cursor(let name): if let cursor = request.cursor { parameters.append(QueryItem(name, cursor)) }
        }
        if let name = layout.sizeParameter, let size = request.size { parameters.append(QueryItem(name, String(size))) }
        var endpoint = endpoint
        let names = Set(parameters.map(\.name))
        endpoint.query.removeAll { names.contains($0.name) }
        endpoint.query += parameters
        return endpoint
    }
}
