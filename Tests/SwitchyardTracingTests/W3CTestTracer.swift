import InMemoryTracing
import Synchronization
import Tracing

/// `InMemoryTracer`'s spans with W3C-shaped ids (32 and 16 hex digits), injected as `traceparent`
/// the way an OpenTelemetry propagator does it.
struct W3CTestTracer: Tracer {
    typealias Span = InMemorySpan

    let base = InMemoryTracer(idGenerator: W3CTestTracer.hexIDs())

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        base.startSpan(
            operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID,
            line: line)
    }

    func activeSpan(identifiedBy context: ServiceContext) -> InMemorySpan? { base.activeSpan(identifiedBy: context) }

    func forceFlush() {}

    func inject<Carrier, Inject: Injector>(_ context: ServiceContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract)
    where Extract.Carrier == Carrier {}

    var finished: [FinishedInMemorySpan] { base.finishedSpans }

    private static func hexIDs() -> InMemoryTracer.IDGenerator {
        let counter = IDCounter()
        return InMemoryTracer.IDGenerator(
            nextTraceID: { hex(counter.next(), digits: 32) },
            nextSpanID: { hex(counter.next(), digits: 16) })
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

/// Hands out increasing ids.
private final class IDCounter: Sendable {
    private let value = Atomic<UInt64>(0x1000)

    func next() -> UInt64 { value.add(1, ordering: .relaxed).newValue }
}

extension FinishedInMemorySpan {
    /// A string attribute's value.
    func string(_ name: String) -> String? {
        guard case .string(let value) = attributes.get(name) else { return nil }
        return value
    }

    /// An integer attribute's value.
    func int(_ name: String) -> Int64? {
        guard case .int64(let value) = attributes.get(name) else { return nil }
        return value
    }
}
