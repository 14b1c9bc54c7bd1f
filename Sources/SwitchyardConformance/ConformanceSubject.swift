public import Switchyard

/// A transport as the conformance suite sees it: a name, how to make one (with the settings a check
/// asks for), how to shut it down, and the checks it is known not to pass on this platform.
///
/// ```swift
/// let subject = ConformanceSubject(
///     name: "URLSession",
///     limitations: [
///         "response-header-order": ConformanceLimitation(
///             "HTTPURLResponse keeps headers in a dictionary", failsWith: .expectation(containing: "field order"))
///     ],
///     makeTransportWith: { settings in
///         URLSessionTransport(configuration: .init(idleTimeout: settings.idleTimeout ?? IdleTimeout.default))
///     }
/// )
/// ```
public struct ConformanceSubject: Sendable {
    /// Makes a fresh transport for one check.
    public typealias Factory = @Sendable () async throws -> any Transport
    /// Makes a fresh transport configured with the settings a check needs.
    public typealias SettingsFactory = @Sendable (ConformanceTransportSettings) async throws -> any Transport
    /// Releases a transport made by the factory once its check is done.
    public typealias Shutdown = @Sendable (any Transport) async throws -> Void

    /// The name used in reports, e.g. `"curl"`.
    public let name: String
    /// Check identifier → why this transport cannot pass it on this platform, and how it fails.
    /// A check declared here must fail exactly that way: a pass or any other failure fails it.
    public let limitations: [String: ConformanceLimitation]
    /// Check identifier → why running it would crash the test process (a trap inside the platform
    /// library on bytes from the network, which no caller can catch). Such a check is not run and
    /// is reported as a limitation; pin the crash in a test that runs it in a child process.
    public let crashingLimitations: [String: String]
    let makeTransport: SettingsFactory
    /// Whether ``makeTransport`` honours the settings; checks that need some are not run otherwise.
    let honoursSettings: Bool
    let shutdown: Shutdown

    /// Creates a subject whose transports honour the settings a check asks for: every check runs.
    /// - Parameters:
    ///   - name: The name used in reports.
    ///   - limitations: Check identifier → why the transport cannot pass it here, and how it fails.
    ///   - crashingLimitations: Check identifier → why running it would crash the process here.
    ///   - makeTransportWith: Makes a fresh transport configured with the settings; called once
    ///     per check (with ``ConformanceTransportSettings/defaults`` for most).
    ///   - shutdown: Releases the transport after its check (default: nothing to release).
    public init(
        name: String,
        limitations: [String: ConformanceLimitation] = [:],
        crashingLimitations: [String: String] = [:],
        makeTransportWith: @escaping SettingsFactory,
        shutdown: @escaping Shutdown = { _ in }
    ) {
        self.name = name
        self.limitations = limitations
        self.crashingLimitations = crashingLimitations
        self.makeTransport = makeTransportWith
        self.honoursSettings = true
        self.shutdown = shutdown
    }

    /// Creates a subject with one way of making its transport: the checks that need a transport
    /// made with settings (``ConformanceCheck/settings``) are not run, and say so.
    /// - Parameters:
    ///   - name: The name used in reports.
    ///   - limitations: Check identifier → why the transport cannot pass it here, and how it fails.
    ///   - crashingLimitations: Check identifier → why running it would crash the process here.
    ///   - makeTransport: Makes a fresh transport; called once per check.
    ///   - shutdown: Releases the transport after its check (default: nothing to release).
    public init(
        name: String,
        limitations: [String: ConformanceLimitation] = [:],
        crashingLimitations: [String: String] = [:],
        makeTransport: @escaping Factory,
        shutdown: @escaping Shutdown = { _ in }
    ) {
        self.name = name
        self.limitations = limitations
        self.crashingLimitations = crashingLimitations
        self.makeTransport = { _ in try await makeTransport() }
        self.honoursSettings = false
        self.shutdown = shutdown
    }
}
