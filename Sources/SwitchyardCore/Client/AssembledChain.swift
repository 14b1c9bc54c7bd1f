import HTTPTypes
import Synchronization

/// One immutable, ready-to-run chain of a ``Client``: the pipeline, its description, and where its
/// events go. A client swaps the whole chain at once when a plugin is registered or removed.
final class AssembledChain: Sendable {
    let pipeline: Pipeline
    let links: [ChainLink]
    let events: EventBus?
    let observers: [Plugin.Observer]
    /// The links that hear of failures found above the chain, innermost first.
    let lateFailureLinks: [any HearsLateFailures]
    /// What the chain was assembled from, to assemble it again with other plugins.
    let source: Source
    /// The `User-Agent` field added to requests without one, or why the configured one is refused.
    let userAgent: Result<HTTPField, SwitchyardError>?
    /// The fields of a request that had none once the `User-Agent` is added: shared by every such
    /// request (copy on write), so the common bare `GET` allocates no field storage of its own.
    let userAgentAlone: HTTPFields?

    /// What a chain is assembled from.
    enum Source: Sendable {
        case interceptors([any Interceptor])
        case configuration(ClientConfiguration)
    }

    /// A chain of exactly these interceptors; the bus is `events`, or else the first
    /// ``EventsInterceptor``'s.
    init(transport: any Transport, interceptors: [any Interceptor], events: EventBus?) {
        self.pipeline = Pipeline(interceptors: interceptors, transport: transport)
        self.events = events ?? interceptors.lazy.compactMap { Pipeline.unwrapped($0) as? EventsInterceptor }.first?.bus
        self.observers = []
        self.lateFailureLinks = Self.lateFailureLinks(interceptors)
        self.source = .interceptors(interceptors)
        self.userAgent = nil
        self.userAgentAlone = nil
        // Links below the last link that repeats the rest of the chain run once per attempt; the rest once per call.
        let lastRepeating = interceptors.lastIndex {
            let link = Pipeline.unwrapped($0)
            return link is any RepeatsTheRestOfTheChain
        }
        self.links =
            interceptors.enumerated().map { index, interceptor in
                let position: ChainPosition = lastRepeating.map { index > $0 } == true ? .attempt : .call
                return ChainLink(name: Pipeline.name(of: interceptor), position: position, origin: .app)
            } + [ChainLink(name: String(describing: type(of: transport)), position: .attempt, origin: .transport)]
    }

    /// The chain a configuration describes.
    init(transport: any Transport, configuration: ClientConfiguration) throws(PluginConfigurationError) {
        let assembly = try ChainAssembly(configuration, transport: transport)
        self.pipeline = Pipeline(interceptors: assembly.interceptors, transport: transport)
        self.links = assembly.links
        self.events = assembly.events
        self.observers = assembly.observers
        self.lateFailureLinks = Self.lateFailureLinks(assembly.interceptors)
        self.source = .configuration(configuration)
        let userAgent = configuration.userAgent.map { value in
            Result { () throws(SwitchyardError) in try HTTPField.validated(name: "User-Agent", value: value) }
        }
        self.userAgent = userAgent
        self.userAgentAlone = (try? userAgent?.get()).map { HTTPFields([$0]) }
    }

    private static func lateFailureLinks(_ interceptors: [any Interceptor]) -> [any HearsLateFailures] {
        interceptors.reversed().compactMap { Pipeline.unwrapped($0) as? any HearsLateFailures }
    }

    /// A new exchange's context for this chain.
    func makeContext(for request: Request) -> ExchangeContext {
        ExchangeContext(
            options: request.options, startedAt: .now, eventBus: events, observers: observers,
            profiledLinks: pipeline.profiledLinks)
    }

    /// This chain's configuration with its plugins changed by `change`; a chain of bare
    /// interceptors becomes a configuration with no built-ins and those interceptors as the app's
    /// call interceptors.
    func configuration(changingPlugins change: (inout [Plugin]) throws(PluginConfigurationError) -> Void)
        throws(PluginConfigurationError) -> ClientConfiguration
    {
        var configuration: ClientConfiguration
        switch source {
        case .configuration(let existing): configuration = existing
        case .interceptors(let interceptors):
            configuration = ClientConfiguration(
                events: events, plugins: [], callInterceptors: interceptors, attemptInterceptors: [])
        }
        try change(&configuration.plugins)
        return configuration
    }
}

/// The chain a ``Client`` runs now: read with one atomic load per call, replaced whole.
///
/// Chains are never freed while the client lives: a call that loaded one keeps using it without a
/// reference count race, and replacing plugins is rare (each replacement keeps one small object).
final class ChainHolder: Sendable {
    /// The current chain, retained by `installed`.
    private let current: Atomic<Unmanaged<AssembledChain>>
    /// Every chain ever installed, which keeps them alive; also serialises replacements.
    private let installed: Lock<[AssembledChain]>

    init(_ chain: AssembledChain) {
        self.current = Atomic(Unmanaged.passUnretained(chain))
        self.installed = Lock([chain])
    }

    /// The chain to run a call with.
    var chain: AssembledChain { current.load(ordering: .acquiring).takeUnretainedValue() }

    /// Replaces the chain with `make(current)`; calls already running keep theirs.
    func replace(_ make: (AssembledChain) throws(PluginConfigurationError) -> AssembledChain) throws(PluginConfigurationError) {
        try installed.withLock { (installed: inout [AssembledChain]) throws(PluginConfigurationError) in
            let next = try make(current.load(ordering: .acquiring).takeUnretainedValue())
            installed.append(next)
            current.store(Unmanaged.passUnretained(next), ordering: .releasing)
        }
    }
}
