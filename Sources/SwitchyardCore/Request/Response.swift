public import HTTPTypes

/// One HTTP response as it flows up the chain: the head and an optional body.
///
/// The body may still be streaming from the network; read it with `for try await chunk in body`
/// or collect it with ``HTTPBody/collect(upTo:)``.
public struct Response: Sendable {
    /// Status and header fields.
    public var head: HTTPResponse
    /// The body, or `nil` when the response has none (e.g. `HEAD`, 204, 304).
    public var body: HTTPBody?

    /// The response's status: the same as `head.status`.
    public var status: HTTPResponse.Status { head.status }

    /// The response's header fields: the same as `head.headerFields`.
    public var headerFields: HTTPFields { head.headerFields }

    /// Creates a response.
    /// - Parameters:
    ///   - head: The response head.
    ///   - body: The body, if any.
    public init(_ head: HTTPResponse, body: HTTPBody? = nil) {
        self.head = head
        self.body = body
    }

    /// Creates a response with a status, header fields and an in-memory body — handy for stubs and
    /// interceptors that answer without the network.
    /// - Parameters:
    ///   - status: The status.
    ///   - headerFields: The header fields.
    ///   - body: The body bytes.
    public init(status: HTTPResponse.Status, headerFields: HTTPFields = [:], body: some Collection<UInt8> = [UInt8]()) {
        self.init(HTTPResponse(status: status, headerFields: headerFields), body: HTTPBody(body))
    }
}
