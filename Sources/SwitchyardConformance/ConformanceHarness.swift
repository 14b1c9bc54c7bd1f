public import HTTPTypes
public import Switchyard
public import SwitchyardTestServer

/// What one conformance check works with: its own loopback server, the transport under test
/// and a `Client` around it, plus expectations that throw ``ConformanceFailure``.
public struct ConformanceHarness: Sendable {
    /// The server this check talks to.
    public let server: LoopbackServer
    /// The transport under test.
    public let transport: any Transport
    /// A client with no interceptors around ``transport``.
    public let client: Client
    /// The name of the ``ConformanceSubject`` under test, for reported measurements.
    public let subjectName: String
    /// Whether the subject declares this check a limitation: a check that would otherwise decide
    /// from a quiet period waits instead for the failure to show, so that a slow machine cannot make
    /// the declared failure look fixed.
    let declaresLimitation: Bool

    init(server: LoopbackServer, transport: any Transport, subjectName: String, declaresLimitation: Bool = false) {
        self.server = server
        self.transport = transport
        self.client = Client(transport: transport, interceptors: [])
        self.subjectName = subjectName
        self.declaresLimitation = declaresLimitation
    }

    /// Prints a figure the check measured (never asserted: timings on shared machines are noisy),
    /// as `conformance-measurement subject=… check=… name=value …`, for reports and the README.
    /// - Parameters:
    ///   - check: The check's identifier.
    ///   - figures: Name and value pairs, in order.
    public func report(check: String, _ figures: KeyValuePairs<String, String>) {
        let rendered = figures.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        print("conformance-measurement subject=\"\(subjectName)\" check=\(check) \(rendered)")
    }

    /// Waits (polling every millisecond, up to 60 s, a bound for a busy machine) until the server sees the connection tagged
    /// `tag` close, and returns how long that took from `start`; `nil` if it never closed.
    public func disconnectLatency(tag: String, since start: ContinuousClock.Instant) async -> Duration? {
        let deadline = start + .seconds(60)
        while ContinuousClock.now < deadline {
            if server.hasDisconnected(tag: tag) { return start.duration(to: .now) }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// A request to `pathAndQuery` on the check's server.
    /// - Parameters:
    ///   - method: The method.
    ///   - pathAndQuery: E.g. `"/bytes/10?framing=chunked"`.
    ///   - headers: Header fields in order.
    ///   - body: The body, if any.
    ///   - options: Per-request options.
    /// - Returns: The request.
    /// - Throws: `SwitchyardError` if the request is invalid.
    public func request(
        _ method: HTTPRequest.Method = .get,
        _ pathAndQuery: String,
        headers: KeyValuePairs<String, String> = [:],
        body: HTTPBody? = nil,
        options: RequestOptions = RequestOptions()
    ) throws -> Request {
        try Request(method: method, url: server.url(pathAndQuery), headers: headers, body: body, options: options)
    }

    /// Sends `request` through the client and buffers the response.
    /// - Parameter request: The request.
    /// - Returns: The buffered response.
    /// - Throws: ``ConformanceFailure`` naming the request if it failed.
    public func send(_ request: Request) async throws -> BufferedResponse {
        do {
            return try await client.send(request)
        } catch {
            throw ConformanceFailure("\(request.head.method) \(request.head.path ?? "") failed: \(error)", cause: error)
        }
    }

    /// Sends a `GET` for `pathAndQuery` and buffers the response.
    /// - Parameter pathAndQuery: The path and query.
    /// - Returns: The buffered response.
    /// - Throws: ``ConformanceFailure`` if it failed.
    public func get(_ pathAndQuery: String) async throws -> BufferedResponse {
        try await send(try request(.get, pathAndQuery))
    }

    /// Streams `request` and reads its body to the end without keeping it; errors pass through.
    /// - Parameter request: The request.
    /// - Throws: Whatever sending or reading threw.
    public func drain(_ request: Request) async throws {
        let response = try await client.stream(request)
        for try await _ in response.body {}
    }

    /// The `/echo` report for `request`.
    /// - Parameter request: A request to `/echo`.
    /// - Returns: What the server received.
    /// - Throws: ``ConformanceFailure`` if the exchange failed or the report is not valid.
    public func echo(_ request: Request) async throws -> EchoReport {
        let response = try await send(request)
        try expectEqual(response.head.status.code, 200, "status of /echo")
        return try EchoReport(json: response.body)
    }

    /// Fails unless `operation` throws a `SwitchyardError` of `kind`.
    /// - Parameters:
    ///   - kind: The expected error kind.
    ///   - what: What was attempted, for the failure message.
    ///   - operation: The exchange.
    ///   - file: The file to report the failure in (the caller's by default).
    ///   - line: The line to report the failure at (the caller's by default).
    /// - Returns: The error.
    /// - Throws: ``ConformanceFailure`` if the operation succeeded or failed differently.
    @discardableResult
    public func expectFailure(
        _ kind: SwitchyardError.Kind, _ what: String, file: String = #fileID, line: Int = #line,
        _ operation: () async throws -> Void
    ) async throws -> SwitchyardError {
        do {
            try await operation()
        } catch let error as SwitchyardError {
            guard error.kind == kind else {
                throw ConformanceFailure("\(what): expected \(kind), got \(error)", cause: error, file: file, line: line)
            }
            return error
        } catch {
            throw ConformanceFailure(
                "\(what): expected \(kind), got a non-Switchyard error \(error)", cause: error, file: file, line: line)
        }
        throw ConformanceFailure("\(what): expected \(kind), but it succeeded", file: file, line: line)
    }

    /// Waits until the server sees the connection tagged `tag` close.
    /// - Parameters:
    ///   - tag: The `?tag=` of the request.
    ///   - what: What should have closed it, for the failure message.
    ///   - file: The file to report the failure in (the caller's by default).
    ///   - line: The line to report the failure at (the caller's by default).
    /// - Throws: ``ConformanceFailure`` after 60 s without a disconnect.
    public func expectDisconnect(tag: String, after what: String, file: String = #fileID, line: Int = #line) async throws {
        guard await server.waitForDisconnect(tag: tag, timeout: .seconds(60)) else {
            throw ConformanceFailure("the server still has the connection open 60 s after \(what)", file: file, line: line)
        }
    }
}

/// Fails unless `condition` holds.
/// - Parameters:
///   - condition: What must be true.
///   - message: What was expected, for the failure message.
///   - file: The file to report the failure in (the caller's by default).
///   - line: The line to report the failure at (the caller's by default).
/// - Throws: ``ConformanceFailure``.
public func expect(_ condition: Bool, _ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line) throws {
    if !condition { throw ConformanceFailure(message(), file: file, line: line) }
}

/// Fails unless `actual == expected`.
/// - Parameters:
///   - actual: The observed value.
///   - expected: The required value.
///   - what: What the value is, for the failure message.
///   - file: The file to report the failure in (the caller's by default).
///   - line: The line to report the failure at (the caller's by default).
/// - Throws: ``ConformanceFailure`` showing both values.
public func expectEqual<Value: Equatable>(
    _ actual: Value, _ expected: Value, _ what: String, file: String = #fileID, line: Int = #line
) throws {
    if actual != expected {
        throw ConformanceFailure("\(what): expected \(expected), got \(actual)", file: file, line: line)
    }
}
