/// An ordered chain of interceptors ending in a transport.
///
/// The first interceptor in the array sees the request first and the response last:
///
/// ```
///            request ▼                                   ▲ response / error
///   ┌───────────────────────────────────────────────────────────────────┐
///   │ interceptors[0]      (sees the request first, the response last)  │
///   │   ┌───────────────────────────────────────────────────────────┐   │
///   │   │ interceptors[1]                                           │   │
///   │   │   ┌───────────────────────────────────────────────────┐   │   │
///   │   │   │ …  interceptors[N-1]                              │   │   │
///   │   │   │     ┌───────────────────────────────────────┐     │   │   │
///   │   │   │     │ transport  (I/O: bytes on the wire)   │     │   │   │
///   │   │   │     └───────────────────────────────────────┘     │   │   │
///   │   │   └───────────────────────────────────────────────────┘   │   │
///   │   └───────────────────────────────────────────────────────────┘   │
///   └───────────────────────────────────────────────────────────────────┘
/// ```
///
/// With `[A, B, C]`, the order is A, B, C on the way down, then the transport, then C, B, A on the
/// way up. An interceptor that does not call `next` stops the descent: the links below it and the
/// transport never see the request.
///
/// Errors are converted into ``SwitchyardError`` once: an error thrown by an interceptor's own code
/// is wrapped with that interceptor's name; an error that is already a `SwitchyardError` passes
/// through untouched.
public final class Pipeline: Sendable {
    /// The interceptors, outermost first.
    public let interceptors: [any Interceptor]
    /// The transport at the end of the chain.
    public let transport: any Transport
    /// The interceptors' names, for stage timings.
    private let names: [String]

    /// Creates a pipeline.
    /// - Parameters:
    ///   - interceptors: The interceptors, outermost first.
    ///   - transport: The transport that performs the I/O.
    public init(interceptors: [any Interceptor], transport: any Transport) {
        self.interceptors = interceptors
        self.transport = transport
        self.names = interceptors.map(Self.name(of:))
    }

    /// Sends a request from position `index` of the chain onwards.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - index: The position of the first interceptor to run; `interceptors.count` means the transport.
    /// - Returns: The response.
    /// - Throws: A ``SwitchyardError``.
    @usableFromInline
    func run(_ request: Request, context: ExchangeContext, from index: Int) async throws -> Response {
        guard context.recordsPipelineStages else { return try await step(request, context: context, from: index) }
        // Stage timings: this link's inclusive time, minus what the next link spent, is its own.
        let started = ContinuousClock.now
        if index == interceptors.count {
            context.recordPipelineTimings { $0.queued = $0.queued ?? context.startedAt.duration(to: started) }
        }
        let nextSpentBefore = index < interceptors.count ? context.linkTime(index + 1) : .zero
        defer { context.recordLinkTime(index, started: started, nextSpentBefore: nextSpentBefore, names: names) }
        return try await step(request, context: context, from: index)
    }

    /// Runs link `index`: an interceptor, or the transport past the last one.
    private func step(_ request: Request, context: ExchangeContext, from index: Int) async throws -> Response {
        if index < interceptors.count {
            let interceptor = interceptors[index]
            do {
                return try await interceptor.intercept(
                    request, context: context, next: Next(pipeline: self, index: index + 1, context: context))
            } catch let error as SwitchyardError {
                throw error
            } catch {
                throw Self.attribute(error, to: interceptor, request: request, context: context)
            }
        }
        try context.checkLiveness()
        context.attemptStartedAt = .now
        do {
            return try await transport.send(request, context: context)
        } catch {
            var wrapped = SwitchyardError.wrapping(error)
            if wrapped.request == nil { wrapped.request = request.head }
            if wrapped.attempt == nil { wrapped.attempt = context.attempt }
            throw wrapped
        }
    }

    private static func attribute(
        _ error: any Error, to interceptor: any Interceptor, request: Request, context: ExchangeContext
    ) -> SwitchyardError {
        var wrapped = SwitchyardError.wrapping(error)
        if !(error is CancellationError) {
            let name = Self.name(of: interceptor)
            wrapped.interceptorName = name
            wrapped.message = "Interceptor \(name) failed: \(error)"
        }
        wrapped.request = request.head
        wrapped.attempt = context.attempt
        return wrapped
    }

    /// The name reports and chain listings use for an interceptor: a ``ClosureInterceptor``'s
    /// name, the wrapped interceptor's name for a ``ScopedInterceptor``, otherwise the type name.
    static func name(of interceptor: any Interceptor) -> String {
        switch interceptor {
        case let closure as ClosureInterceptor: closure.name
        case let scoped as ScopedInterceptor: name(of: scoped.wrapped)
        default: String(describing: type(of: interceptor))
        }
    }
}
