import Switchyard
import SwitchyardTestServer

/// One behaviour of the transport conformance suite.
///
/// Get checks from ``TransportConformance/checks`` and run them with ``run(on:)`` or, under
/// Swift Testing, ``verify(on:sourceLocation:)``.
public struct ConformanceCheck: Sendable, CustomStringConvertible {
    /// The area of behaviour a check belongs to; used to group reports.
    public enum Area: String, Sendable, CaseIterable {
        /// Methods and bodiless responses.
        case methods
        /// Status codes and interim responses.
        case statuses
        /// Header fields, both ways.
        case headers
        /// Request bodies.
        case requestBodies = "request bodies"
        /// Response bodies and their framing.
        case responseBodies = "response bodies"
        /// Cancellation and deadlines.
        case cancellation
        /// Failures and broken servers.
        case failures
        /// Concurrent use.
        case concurrency
        /// Connection phases and connection events.
        case connections
    }

    /// A stable identifier, e.g. `"cancel-mid-body"`; used for ``ConformanceSubject/limitations``.
    public let id: String
    /// The area the check belongs to.
    public let area: Area
    /// What a conforming transport does, in one sentence.
    public let summary: String
    /// The settings the check's transport is made with (``ConformanceTransportSettings/defaults``
    /// for most checks).
    public let settings: ConformanceTransportSettings
    let body: @Sendable (ConformanceHarness) async throws -> Void

    init(
        _ id: String, _ area: Area, _ summary: String, settings: ConformanceTransportSettings = .defaults,
        _ body: @escaping @Sendable (ConformanceHarness) async throws -> Void
    ) {
        self.id = id
        self.area = area
        self.summary = summary
        self.settings = settings
        self.body = body
    }

    /// The identifier, so test reports name the check.
    public var description: String { id }

    /// Runs the check against a fresh transport from `subject` and a fresh loopback server.
    ///
    /// - Parameter subject: The transport under test.
    /// - Returns: ``ConformanceOutcome/passed``, or ``ConformanceOutcome/limitation(_:)`` when the
    ///   check failed the way `subject` declares it fails.
    /// - Throws: ``ConformanceFailure`` when the transport does not behave as the check requires,
    ///   when a declared limitation no longer applies, or when a declared check fails in a way its
    ///   declaration does not name; errors from starting the server or
    ///   making the transport.
    public func run(on subject: ConformanceSubject) async throws -> ConformanceOutcome {
        if let reason = subject.crashingLimitations[id] { return .limitation("not run, it would crash the process: \(reason)") }
        if settings != .defaults && !subject.honoursSettings {
            return .limitation(
                "not run: it needs a transport made with \(settings), and \(subject.name) was given a factory"
                    + " without settings (ConformanceSubject(name:makeTransportWith:) takes them)")
        }
        let server = try await LoopbackServer.start()
        let transport: any Transport
        do {
            transport = try await subject.makeTransport(settings)
        } catch {
            try? await server.shutdown()
            throw error
        }
        var failure: (any Error)?
        do {
            try await body(
                ConformanceHarness(
                    server: server, transport: transport, subjectName: subject.name,
                    declaresLimitation: subject.limitations[id] != nil))
        } catch {
            failure = error
        }
        try? await subject.shutdown(transport)
        try? await server.shutdown()

        if let limitation = subject.limitations[id] {
            guard let failure else {
                throw ConformanceFailure(
                    "'\(id)' is declared a limitation of \(subject.name) (\(limitation.reason)), but the check passed;"
                        + " remove the declaration.")
            }
            guard limitation.expectedFailure.matches(failure) else {
                throw ConformanceFailure(
                    "'\(id)' is declared a limitation of \(subject.name) failing with \(limitation.expectedFailure),"
                        + " but it failed otherwise: \(failure)",
                    cause: failure)
            }
            return .limitation("\(limitation.reason) (observed: \(failure))")
        }
        if let failure { throw failure }
        return .passed
    }
}

/// The result of a conformance check that did not fail.
public enum ConformanceOutcome: Sendable, Equatable {
    /// The transport behaved as required.
    case passed
    /// The check failed, as the subject declared it would; the associated text says why.
    case limitation(String)
}
