import HTTPTypes
public import SwitchyardCore
import Synchronization

/// Records each call into a ``TimingStats`` (and optionally swift-metrics) once it is over: when its
/// response body ends, fails or is dropped, or when the call throws.
///
/// A pipeline that holds this link records its stage timings (one clock reading per link boundary);
/// a pipeline without it records none.
///
/// Phases: `call` (start of the call to end of the body), `queued`, `dns`, `connect`, `tls`, `ttfb`,
/// `transfer` (first byte to end of transfer, as the transport reports it), `backoff` (all retry
/// waits), `decoding`, and `interceptor:<name>` (time inside each interceptor). Transport phases are
/// the last attempt's. A call counts as an error when it throws, its body fails, or its status is
/// 500 or more. A call that shared another call's exchange (coalescing) counts as a call of its own
/// and also under ``TimingSnapshot/Endpoint/coalesced``.
///
/// In an assembled client (``SwitchyardCore/Plugin/timingStats(_:exporter:)``) it is the call link right after events.
public struct TimingStatsInterceptor: Interceptor, ReadsStageTimings {
    /// Where calls are aggregated.
    public let stats: TimingStats
    /// Where calls are also exported, if anywhere.
    public let exporter: TimingMetricsExporter?

    /// Creates the interceptor.
    /// - Parameters:
    ///   - stats: Where calls are aggregated.
    ///   - exporter: Also export to swift-metrics (default: no).
    public init(stats: TimingStats, exporter: TimingMetricsExporter? = nil) {
        self.stats = stats
        self.exporter = exporter
    }

    /// Times the call around the rest of the chain.
    public nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        let recorder = CallRecorder(
            stats: stats, exporter: exporter, request: request.head, template: request.options.endpointTemplate,
            context: context)
        var response: Response
        do {
            response = try await next(request)
        } catch {
            recorder.finish(failed: true)
            throw error
        }
        let serverError = response.head.status.code >= 500
        if let body = response.body {
            recorder.isServerError = serverError
            response.body = body.tapped(by: recorder)
        } else {
            recorder.finish(failed: serverError)
        }
        return response
    }
}

/// Records a call exactly once, when its body ends, fails or is dropped.
final class CallRecorder: BodyTap {
    private let stats: TimingStats
    private let exporter: TimingMetricsExporter?
    private let request: HTTPRequest
    private let context: ExchangeContext
    private let template: String?
    private let done = Atomic<Bool>(false)
    private let serverError = Atomic<Bool>(false)

    init(stats: TimingStats, exporter: TimingMetricsExporter?, request: HTTPRequest, template: String?, context: ExchangeContext) {
        self.stats = stats
        self.template = template
        self.exporter = exporter
        self.request = request
        self.context = context
    }

    deinit {
        finish(failed: serverError.load(ordering: .relaxed))
    }

    /// Whether the response's status (500 or more) makes the call count as an error.
    var isServerError: Bool {
        get { serverError.load(ordering: .relaxed) }
        set { serverError.store(newValue, ordering: .relaxed) }
    }

    func received(_ chunk: ArraySlice<UInt8>) {}

    func ended() throws { finish(failed: isServerError) }

    func failed(_ error: SwitchyardError) { finish(failed: true) }

    func finish(failed: Bool) {
        guard !done.exchange(true, ordering: .relaxed) else { return }
        let (stats, exporter, context, request, template) = (stats, exporter, context, request, template)
        let callTime = context.startedAt.duration(to: .now)
        let submit: @Sendable () -> Void = {
            let (stages, interceptors) = context.stageTimings
            let call = TimingStats.PendingCall(
                head: request, phases: Self.phases(context, call: callTime, stages: stages),
                interceptors: interceptors, failed: failed,
                coalesced: stages.stages.contains { $0.name == Self.coalescedStage }, template: template)
            Self.submit(call, to: stats, exporter: exporter, shard: context.id)
        }
        // A caller that records stages after the response (decoding the body) finishes them later;
        // the record waits for them.
        if failed || !context.options.recordsStagesAfterResponse || !context.whenStagesRecorded(submit) { submit() }
    }

    private static func submit(
        _ call: TimingStats.PendingCall, to stats: TimingStats, exporter: TimingMetricsExporter?,
        shard: UInt64
    ) {
        guard let exporter else { return stats.enqueue(call, shard: shard) }
        let key = stats.record(call)
        exporter.export(
            key,
            phases: call.phases
                + call.interceptors.sorted { $0.name < $1.name }
                .map { ("interceptor:\($0.name)", $0.duration) }, failed: call.failed)
    }

    /// The stage a call answered by another call's exchange records (request coalescing's): such
    /// calls are counted apart.
    static let coalescedStage = "coalesced"

    /// The call's phases: its whole time, the transport's phases, then every recorded stage (each
    /// name once, its durations summed, in the order first recorded).
    static func phases(_ context: ExchangeContext, call: Duration, stages pipeline: PipelineTimings) -> [(String, Duration)] {
        let transport = context.timings
        var phases: [(String, Duration)] = []
        phases.reserveCapacity(8 + pipeline.stages.count)
        func add(_ name: String, _ value: Duration?) {
            if let value { phases.append((name, value)) }
        }
        add("call", call)
        add("dns", transport.dns)
        add("connect", transport.connect)
        add("tls", transport.tls)
        add("ttfb", transport.firstByte)
        add("transfer", transport.total.flatMap { total in transport.firstByte.map { total - $0 } })
        for stage in pipeline.stages {
            if let index = phases.firstIndex(where: { $0.0 == stage.name }) {
                phases[index].1 += stage.duration
            } else {
                phases.append((stage.name, stage.duration))
            }
        }
        return phases
    }
}
