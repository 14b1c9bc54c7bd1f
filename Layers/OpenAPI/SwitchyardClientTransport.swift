public import HTTPTypes
public import OpenAPIRuntime
public import SwitchyardCore

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
/// A Switchyard `SwitchyardCore.Client` as a swift-openapi-runtime `ClientTransport`: a generated
/// OpenAPI client gets the client's whole chain (retry, redirects, events, timing, plugins) and
/// whichever Switchyard transport it runs on.
///
/// ```swift
/// import OpenAPIRuntime
/// import Switchyard
/// import SwitchyardCurl
/// import SwitchyardOpenAPI
///
/// let switchyard = try SwitchyardCore.Client(transport: CurlTransport(), configuration: ClientConfiguration())
/// let api = Client(                                  // the generated client
///     serverURL: URL(string: "https://api.example.com/v1")!,
///     transport: SwitchyardClientTransport(client: switchyard)
/// )
/// do {
///     let greeting = try await api.getGreeting(path: .init(name: "Ada"))
///     print(try greeting.ok.body.json)
/// } catch let error as ClientError {
///     switch error.switchyardError?.kind {             // the Switchyard error inside
///     case .timeout?, .connectionFailed?: showOfflineBanner()
///     default: throw error
///     }
/// }
/// ```
///
/// ### What crosses the bridge
///
/// - **Bodies stream both ways without buffering.** The request body is pulled chunk by chunk as
///   the transport sends it; the response body is handed back as soon as the head arrives and
///   streams as the caller reads it. The known length carries over (so `Content-Length` is sent
///   when the OpenAPI body knows its size), and so does the iteration behaviour: an OpenAPI
///   `.multiple` body is `SwitchyardCore.HTTPBody.Replayability.replayable` (retries and redirects
///   may send it again), a `.single` one is `SwitchyardCore.HTTPBody.Replayability.singleUse`.
/// - **The operation ID becomes a tag.** Each request carries the `operationID` in
///   `RequestOptions.tags` and in `RequestOptions.openAPIOperationID`, so
///   `RequestScope(tags: ["getGreeting"])` puts one operation in a department plugin's scope, and
///   events, logs and trackers see it. A `template:` tag with it makes timing statistics (and the
///   `url.template` of HTTP metrics) count each operation under its operation ID.
/// - **Statuses are responses.** A 404 or 500 comes back as a response for the generated code to
///   decode as the documented (or undocumented) output, unless the Switchyard client's
///   `ClientConfiguration.validation` turns statuses into errors.
/// - **Errors keep their kind.** The generated client wraps what the transport throws in a
///   `ClientError`; its `OpenAPIRuntime.ClientError.switchyardError` (or
///   `SwitchyardCore.SwitchyardError.init(openAPIError:)`) gives the `SwitchyardError` back, to
///   switch over `SwitchyardError.Kind`. Failures while reading the response body surface the
///   same way.
/// - **Cancellation propagates.** Cancelling the task that calls the generated method stops the
///   exchange on the wire (`SwitchyardError.Kind.cancelled`), also while the body streams.
///
/// The server URL's path is a prefix of every operation's path (`https://host/v1` + `/greetings`
/// → `/v1/greetings`); its query and user information are not used (send credentials with a
/// header rule or a middleware).
///
/// ### Names both modules declare
///
/// `HTTPBody` exists in `Switchyard` and in `OpenAPIRuntime`, and a generated client is named
/// `Client` like `SwitchyardCore.Client`. In a file that imports both modules:
///
/// - `Client` means the generated client (declarations of your own module win over imported
///   ones); write `SwitchyardCore.Client` for Switchyard's.
/// - `HTTPBody` is ambiguous ("'HTTPBody' is ambiguous for type lookup"). Write
///   `OpenAPIRuntime.HTTPBody` or `SwitchyardCore.HTTPBody`; or use the aliases ``OpenAPIHTTPBody`` and
///   ``SwitchyardHTTPBody`` this module declares; or pick what plain `HTTPBody` means in one file
///   with a scoped import, which wins over the module imports:
///
///   ```swift
///   import OpenAPIRuntime
///   import class OpenAPIRuntime.HTTPBody   // plain `HTTPBody` is OpenAPI's in this file
///   import Switchyard
///   ```
///
///   Generated code itself always qualifies it, so it compiles next to Switchyard unchanged.
/// - `HTTPRequest`, `HTTPResponse` and `HTTPFields` are swift-http-types' in both: no clash.
///
/// Keeping the generated client in its own module (the generator's usual setup) avoids the
/// question for the code that calls it.
public struct SwitchyardClientTransport: ClientTransport {
    /// The client whose chain and transport every request goes through.
    public let client: SwitchyardCore.Client
    /// The options every request starts with (timeout, retry override, silence, …); the
    /// operation's tag is added to them. Per call, ``withRequestOptions(_:operation:)`` changes them.
    public var options: RequestOptions

    /// The last server URL parsed.
    private let baseURLs = OpenAPIBaseURLCache()

    /// Options set for the calls of the current task by ``withRequestOptions(_:operation:)``.
    @TaskLocal static var taskOptions: RequestOptions?

    /// Creates a transport that sends through `client`.
    /// - Parameters:
    ///   - client: The Switchyard client (its chain and transport).
    ///   - options: The options every request starts with.
    public init(client: SwitchyardCore.Client, options: RequestOptions = RequestOptions()) {
        self.client = client
        self.options = options
    }

    /// Runs `operation` with changed request options for every call it makes through a
    /// `SwitchyardClientTransport` — a generated method has no parameter for them:
    ///
    /// ```swift
    /// let greeting = try await SwitchyardClientTransport.withRequestOptions({ $0.timeout = .seconds(2) }) {
    ///     try await api.getGreeting(path: .init(name: "Ada"))
    /// }
    /// ```
    /// - Parameters:
    ///   - change: Changes the options; it starts from those of an enclosing call of this method,
    ///     else from empty options (not the transport's ``options``).
    ///   - operation: The work whose calls use the changed options.
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withRequestOptions<T: Sendable>(
        _ change: (inout RequestOptions) -> Void,
        operation: () async throws -> T
    ) async rethrows -> T {
        var changed = taskOptions ?? RequestOptions()
        change(&changed)
        return try await $taskOptions.withValue(changed, operation: operation)
    }

    /// Sends one operation's request through the Switchyard client and returns as soon as the
    /// response head arrives; the body streams.
    /// - Parameters:
    ///   - request: The request, its path relative to `baseURL`.
    ///   - body: The request body, if any.
    ///   - baseURL: The server URL.
    ///   - operationID: The operation's ID; becomes a tag of the request.
    /// - Returns: The response head and its streaming body (`nil` for `HEAD`, 204 and 304).
    /// - Throws: A `SwitchyardError` (the generated client wraps it in a `ClientError`).
    public func send(
        _ request: HTTPRequest,
        body: OpenAPIRuntime.HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, OpenAPIRuntime.HTTPBody?) {
        var options = Self.taskOptions ?? options
        options.tags.insert(operationID)
        options.tags.insert(RequestOptions.endpointTemplateTagPrefix + operationID)  // timing statistics per operation
        options.openAPIOperationID = operationID
        let head = OpenAPIRequestHead.absolute(request, base: try baseURLs.base(of: baseURL))
        let switchyardRequest = Request(head, body: body.map(OpenAPIBodyBridge.switchyard), options: options)
        let response = try await client.stream(switchyardRequest)
        if request.method == .head || response.head.status == .noContent || response.head.status == .notModified {
            return (response.head, nil)
        }
        return (response.head, OpenAPIBodyBridge.openAPI(response.body))
    }
}
