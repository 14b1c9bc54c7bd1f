/// A transport did not behave as a conformance check requires.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was expected and what happened.
    public let message: String
    /// The file of the failed expectation.
    public let file: String
    /// The line of the failed expectation.
    public let line: Int
    /// The error that made the expectation fail, if one did (e.g. the `SwitchyardError` of an exchange
    /// that should have succeeded).
    public let cause: (any Error)?

    /// Creates a failure.
    /// - Parameters:
    ///   - message: What was expected and what happened.
    ///   - cause: The error that made the expectation fail, if one did.
    ///   - file: The file of the failed expectation.
    ///   - line: The line of the failed expectation.
    public init(_ message: String, cause: (any Error)? = nil, file: String = #fileID, line: Int = #line) {
        self.message = message
        self.cause = cause
        self.file = file
        self.line = line
    }

    /// The message with its source location.
    public var description: String { "\(message) [\(file):\(line)]" }
}
