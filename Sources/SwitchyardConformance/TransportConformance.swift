/// One suite of behaviour that every Switchyard transport must share.
///
/// An app replaces its networking framework without touching a call site only if every
/// transport answers the same way: same statuses, same header fields, same bytes, same
/// error kinds, same cancellation. ``checks`` is that promise written down. Each check starts
/// its own `LoopbackServer` on 127.0.0.1 and a fresh transport, so
/// checks are independent and can run in any order.
///
/// ### Run the suite on your own transport
///
/// With Swift Testing, one parameterized test runs every check and reports each separately:
///
/// ```swift
/// import Testing
/// import SwitchyardConformance
///
/// @Suite(.serialized) struct MyTransportConformance {
///     static let subject = ConformanceSubject(name: "MyTransport") { MyTransport() }
///
///     @Test(arguments: TransportConformance.checks)
///     func conforms(_ check: ConformanceCheck) async throws {
///         try await check.verify(on: Self.subject)
///     }
/// }
/// ```
///
/// Outside Swift Testing, call ``ConformanceCheck/run(on:)`` and treat a thrown
/// ``ConformanceFailure`` as a failed check.
///
/// ### Declared limitations
///
/// A backend that truly cannot do something on a platform declares it, with the reason, in
/// ``ConformanceSubject/limitations``. The check still runs: if it fails, it is reported as
/// skipped with the reason; if it passes, the declaration is stale and the check fails, so
/// limitations never outlive the reason for them.
///
/// Use `.serialized`: several checks move 64 MiB and measure how far the server can run
/// ahead of a slow reader, which is clearest when checks of one transport do not overlap.
public enum TransportConformance {
    /// Every check, in a stable order.
    public static let checks: [ConformanceCheck] =
        methodChecks + statusChecks + headerChecks + requestBodyChecks + responseBodyChecks
        + cancellationChecks + idleTimeoutChecks + failureChecks + hostileServerChecks + concurrencyChecks + queueChecks
        + streamingAndStateChecks + connectionChecks

    /// The check with identifier `id`, if there is one.
    /// - Parameter id: A ``ConformanceCheck/id``.
    /// - Returns: The check.
    public static func check(_ id: String) -> ConformanceCheck? {
        checks.first { $0.id == id }
    }
}
