public import HTTPTypes
public import SwitchyardCore
import SwitchyardJSON
import SwitchyardTransportKit
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transport that answers from endpoints' ``SampleResponse``s, so screens work before the API
/// exists; the same endpoints then go to the real server unchanged by swapping the transport.
///
/// ```swift
/// let samples = SampleTransport(serving: [userEndpoint, booksEndpoint])
/// let api = try APIClient(client: Client(transport: samples, configuration: ClientConfiguration()),
///                         baseURL: "https://api.example.com")
/// ```
///
/// A request is matched by method and path template (`{name}` matches one segment; the query is
/// ignored). An endpoint with several samples answers them in turn, cycling. Requests that match no
/// endpoint get a 404 with a JSON body naming the path. ``failEvery`` injects failures into any
/// endpoint. Delays honour cancellation and the request's deadline.
public final class SampleTransport: Transport {
    private struct Route: Sendable {
        let method: HTTPRequest.Method
        let template: [Substring]
        let samples: [SampleResponse]
    }

    private let routes: [Route]
    private let calls = Lock<[Int: Int]>([:])
    private let counter = Atomic<Int>(0)
    /// Every `n`-th call (counting from 1 over all endpoints) fails with `injectedFailure`; `nil`: never.
    public let failEvery: Int?
    /// The failure injected by ``failEvery``.
    public let injectedFailure: SwitchyardError
    /// A delay added before every answer.
    public let delay: Duration

    /// Creates a transport serving these endpoints' samples.
    /// - Parameters:
    ///   - endpoints: The endpoints (any value types).
    ///   - delay: A delay before every answer (besides each sample's own).
    ///   - failEvery: Every `n`-th call fails with `injectedFailure`.
    ///   - injectedFailure: The failure to inject (default: a connection failure).
    public init(
        serving endpoints: [any SampledEndpoint], delay: Duration = .zero, failEvery: Int? = nil,
        injectedFailure: SwitchyardError = .connectionFailed("Injected failure (SampleTransport.failEvery).")
    ) {
        self.routes = endpoints.map { endpoint in
            Route(method: endpoint.method, template: Self.segments(endpoint.path), samples: endpoint.samples)
        }
        self.delay = delay
        self.failEvery = failEvery
        self.injectedFailure = injectedFailure
    }

    /// Answers from the matching endpoint's next sample.
    public nonisolated(nonsending) func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let path = Self.segments(request.head.path ?? "/")
        guard let index = routes.firstIndex(where: { $0.method == request.head.method && Self.matches($0.template, path) }),
            !routes[index].samples.isEmpty
        else {
            try await wait(delay, context: context)
            let error: JSONValue = .object(["error": .string("no sample for \(request.head.method) \(request.head.path ?? "/")")])
            return Response(
                status: .notFound, headerFields: [.contentType: "application/json"], body: Array(error.description.utf8))
        }
        let turn = calls.withLock { counts in
            defer { counts[index, default: 0] += 1 }
            return counts[index, default: 0]
        }
        let samples = routes[index].samples
        let sample = samples[turn % samples.count]
        try await wait(delay + sample.delay, context: context)
        if let failEvery, failEvery > 0, number % failEvery == 0 { throw injectedFailure }
        switch sample.answer {
        case .failure(let error):
            throw error
        case .response(let status, let headers, let body):
            var fields = HTTPFields()
            for (name, value) in headers {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let bytes = try Self.bytes(of: body)
            let head = HTTPResponse(status: HTTPResponse.Status(code: status), headerFields: fields)
            let elapsed = context.attemptStartedAt.duration(to: .now)
            context.recordTimings {
                $0.firstByte = elapsed
                $0.total = elapsed
            }
            return Response(head, body: ResponseHeadRules.hasBody(method: request.head.method, status: head.status) ? HTTPBody(bytes) : nil)
        }
    }

    private func wait(_ duration: Duration, context: ExchangeContext) async throws(SwitchyardError) {
        try context.checkLiveness()
        guard duration > .zero else { return }
        let limited = context.remainingTime.map { min($0, duration) } ?? duration
        do {
            try await Task.sleep(for: limited)
        } catch {
            throw .cancelled
        }
        try context.checkLiveness()
    }

    private static func bytes(of body: SampleResponse.SampleBody) throws(SwitchyardError) -> [UInt8] {
        switch body {
        case .inline(let bytes): return bytes
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .transportFailed("The sample file '\(path)' could not be read.")
            }
            return Array(data)
        }
    }

    static func segments(_ path: String) -> [Substring] {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        return path[..<end].split(separator: "/")
    }

    static func matches(_ template: [Substring], _ path: [Substring]) -> Bool {
        template.count == path.count
            && zip(template, path).allSatisfy { pattern, segment in
                (pattern.first == "{" && pattern.last == "}") || pattern == segment
            }
    }
}

/// What ``SampleTransport`` needs of an endpoint, whatever its value type.
public protocol SampledEndpoint: Sendable {
    /// The HTTP method.
    var method: HTTPRequest.Method { get }
    /// The path template.
    var path: String { get }
    /// The samples.
    var samples: [SampleResponse] { get }
}

extension Endpoint: SampledEndpoint {}
