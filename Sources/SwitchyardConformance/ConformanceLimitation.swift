public import Switchyard

/// A conformance check a transport cannot pass on a platform: why, and exactly how it fails.
///
/// The check still runs. It is reported as a limitation (skipped, with the reason) only when it
/// fails the way ``expectedFailure`` describes; a pass makes the declaration stale and a failure of
/// any other kind is a regression, and both fail the check.
///
/// ```swift
/// "response-header-order": ConformanceLimitation(
///     "HTTPURLResponse.allHeaderFields is a dictionary: the server's field order is lost",
///     failsWith: .expectation(containing: "field order")
/// )
/// ```
public struct ConformanceLimitation: Sendable {
    /// Why the transport cannot pass the check, for the report.
    public let reason: String
    /// How the check fails on this transport.
    public let expectedFailure: ExpectedConformanceFailure

    /// Declares a limitation.
    /// - Parameters:
    ///   - reason: Why the transport cannot pass the check.
    ///   - expectedFailure: How the check fails on this transport; any other failure fails the check.
    public init(_ reason: String, failsWith expectedFailure: ExpectedConformanceFailure) {
        self.reason = reason
        self.expectedFailure = expectedFailure
    }
}

/// How a declared limitation makes its check fail: an error kind the transport throws, or an
/// expectation of the check that does not hold.
public struct ExpectedConformanceFailure: Sendable, CustomStringConvertible {
    private enum Shape: Sendable {
        case error(SwitchyardError.Kind, messageContaining: String?)
        case expectation(containing: String)
    }

    private let shape: Shape

    /// The exchange fails with a `SwitchyardError` of `kind` (thrown by the transport, or the cause
    /// of a failed expectation), whose message contains `text` when it is given.
    /// - Parameters:
    ///   - kind: The error kind.
    ///   - text: Text the error's message must contain, or `nil` for any message.
    /// - Returns: The expected failure.
    public static func error(_ kind: SwitchyardError.Kind, messageContaining text: String? = nil) -> Self {
        Self(shape: .error(kind, messageContaining: text))
    }

    /// An expectation of the check fails with a message containing `text` (e.g. `"field order"` or
    /// `"but it succeeded"`).
    /// - Parameter text: Text the ``ConformanceFailure/message`` must contain.
    /// - Returns: The expected failure.
    public static func expectation(containing text: String) -> Self {
        Self(shape: .expectation(containing: text))
    }

    /// Whether `failure`, thrown by a check, is this failure.
    /// - Parameter failure: What the check threw.
    /// - Returns: Whether it matches.
    public func matches(_ failure: any Error) -> Bool {
        switch shape {
        case .error(let kind, let text):
            let error = (failure as? SwitchyardError) ?? ((failure as? ConformanceFailure)?.cause as? SwitchyardError)
            guard let error, error.kind == kind else { return false }
            return text.map { error.message.contains($0) } ?? true
        case .expectation(let text):
            guard let failure = failure as? ConformanceFailure else { return false }
            return failure.message.contains(text)
        }
    }

    /// The failure in words, e.g. `protocolViolation` or `an expectation failing with "field order"`.
    public var description: String {
        switch shape {
        case .error(let kind, nil): "\(kind)"
        case .error(let kind, let text?): "\(kind) whose message contains \"\(text)\""
        case .expectation(let text): "an expectation failing with \"\(text)\""
        }
    }
}
