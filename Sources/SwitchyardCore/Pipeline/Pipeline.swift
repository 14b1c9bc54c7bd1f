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
/// Errors are converted into ``SwitchyardError`` once, where they leave a link: an error thrown by
/// an interceptor's own code is wrapped with that interceptor's name, one thrown by the transport
/// is wrapped as the transport's; an error that is already a `SwitchyardError` passes through, with
/// the request and attempt filled in where it lacks them. Links above see only `SwitchyardError`s.
///
/// Stage timings (time inside each interceptor, queueing) are recorded only by a pipeline that
/// has a link reading them (a ``ReadsStageTimings`` link, e.g. timing statistics); other pipelines do no timing work.
public final class Pipeline: Sendable {
    /// The interceptors, outermost first.
    public let interceptors: [any Interceptor]
    /// The transport at the end of the chain.
    public let transport: any Transport
    /// The links' names, the transport last, when the chain records stage timings; `nil` otherwise.
    let profiledLinks: [String]?

    /// Creates a pipeline.
    /// - Parameters:
    ///   - interceptors: The interceptors, outermost first.
    ///   - transport: The transport that performs the I/O.
    public init(interceptors: [any Interceptor], transport: any Transport) {
        self.interceptors = interceptors
        self.transport = transport
        let readsStages = interceptors.contains { Self.unwrapped($0) is any ReadsStageTimings }
        self.profiledLinks = readsStages ? interceptors.map(Self.name(of:)) + [String(describing: type(of: transport))] : nil
    }

    /// Sends a request from position `index` of the chain onwards.
    /// - Parameters:
    ///   - request: The request.
    ///   - context: The exchange context.
    ///   - index: The position of the first interceptor to run; `interceptors.count` means the transport.
    /// - Returns: The response.
    /// - Throws: A ``SwitchyardError``.
    ///
    /// Inlined where it is called (``Next``, ``Client``): a chain that records no stage timings goes
    /// straight to the link, one async frame per hop.
    @inlinable
    nonisolated(nonsending) func run(_ request: Request, context: ExchangeContext, from index: Int) async throws(SwitchyardError)
        -> Response
    {
        guard context.profilesChain else { return try await step(request, context: context, from: index) }
        return try await runRecordingStage(request, context: context, from: index)
    }

    /// Runs link `index` between the stage-timing marks of a chain that records them. Never inlined:
    /// inlined into ``run(_:context:from:)`` beside ``step(_:context:from:)``, it doubled the async
    /// frame every request allocates.
    @usableFromInline @inline(never)
    nonisolated(nonsending) func runRecordingStage(_ request: Request, context: ExchangeContext, from index: Int)
        async throws(SwitchyardError) -> Response
    {
        context.enterLink(index)
        defer { context.leaveLink(index) }
        return try await step(request, context: context, from: index)
    }

    /// Runs link `index`: an interceptor, or the transport past the last one.
    @usableFromInline
    nonisolated(nonsending) func step(_ request: Request, context: ExchangeContext, from index: Int) async throws(SwitchyardError)
        -> Response
    {
        // One way out for every failure: each `throw` site would take a `SwitchyardError` of room in
        // the async frame.
        do {
            if index < interceptors.count {
                return try await interceptors[index].intercept(
                    request, context: context, next: Next(pipeline: self, index: index + 1, context: context))
            }
            try Self.beginAttempt(of: request, context: context)
            return try await transport.send(request, context: context)
        } catch {
            throw Self.seal(error, thrownBy: index < interceptors.count ? interceptors[index] : nil, request: request, context: context)
        }
    }

    /// Checks that the exchange is live and its body can be sent, and marks the attempt's start, just
    /// before the transport runs. Synchronous and never inlined, for the reason ``seal(_:thrownBy:request:context:)`` is.
    @usableFromInline @inline(never)
    static func beginAttempt(of request: Request, context: ExchangeContext) throws(SwitchyardError) {
        let now = ContinuousClock.now
        try context.checkLiveness(at: now)
        if let body = request.body, body.isSpent {
            throw seal(HTTPBody.spentRefusal, thrownBy: nil, request: request, context: context)
        }
        context.attemptStartedAt = now
    }

    /// The ``SwitchyardError`` a link's failure leaves it as (see the type's discussion). A synchronous
    /// function of its own, never inlined: its temporaries then live on the thread's stack, not in the
    /// async frame of ``step(_:context:from:)``, which every request allocates.
    @usableFromInline @inline(never)
    static func seal(
        _ error: any Error, thrownBy interceptor: (any Interceptor)?, request: Request, context: ExchangeContext
    ) -> SwitchyardError {
        let name = interceptor.flatMap { error is SwitchyardError ? nil : Self.name(of: $0) }
        return .sealing(error, request: request.head, attempt: context.attempt, thrownBy: name)
    }

    /// The name reports and chain listings use for an interceptor: a ``ClosureInterceptor``'s
    /// name, the wrapped interceptor's name for a ``ScopedInterceptor``, otherwise the type name.
    static func name(of interceptor: any Interceptor) -> String {
        let link = unwrapped(interceptor)
        return (link as? ClosureInterceptor)?.name ?? String(describing: type(of: link))
    }

    /// The interceptor a ``ScopedInterceptor`` wraps, or the interceptor itself.
    static func unwrapped(_ interceptor: any Interceptor) -> any Interceptor {
        (interceptor as? ScopedInterceptor).map { unwrapped($0.wrapped) } ?? interceptor
    }
}

/// A link that reads the chain's stage timings (``ExchangeContext/pipelineTimings``,
/// ``ExchangeContext/stageTimings``): its presence makes the pipeline record them (one clock reading
/// per link boundary); a chain without one records none.
public protocol ReadsStageTimings {}

/// A link that may call the rest of the chain more than once per call (it sends the request again): in a
/// client made from bare interceptors, the links below the last such link are listed as attempt
/// links (``Client/chain``).
public protocol RepeatsTheRestOfTheChain {}
