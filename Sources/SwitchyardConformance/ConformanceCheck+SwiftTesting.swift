public import Testing

extension ConformanceCheck {
    /// Runs the check under Swift Testing: a failure fails the test, a declared limitation
    /// ends it as skipped (cancelled) with its reason in the report; built with a compiler before
    /// Swift 6.3, which has no public `Test.cancel`, it is recorded as a known issue instead.
    ///
    /// ```swift
    /// @Test(arguments: TransportConformance.checks)
    /// func conforms(_ check: ConformanceCheck) async throws {
    ///     try await check.verify(on: subject)
    /// }
    /// ```
    /// - Parameters:
    ///   - subject: The transport under test.
    ///   - sourceLocation: Where the calling test is.
    public func verify(on subject: ConformanceSubject, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        switch try await run(on: subject) {
        case .passed:
            return
        case .limitation(let reason):
            // Printed as well: not every test reporter shows the reason of a cancelled (skipped) case.
            print("conformance-skip subject=\"\(subject.name)\" check=\(id) reason=\"\(reason)\"")
            #if compiler(>=6.3)
            try Test.cancel("Skipped on \(subject.name): \(summary) — \(reason)", sourceLocation: sourceLocation)
            #else
            // `Test.cancel` is public from Swift 6.3; before, the declared limitation is a known issue.
            withKnownIssue("Skipped on \(subject.name): \(summary) — \(reason)") {
                Issue.record(Comment(rawValue: reason), sourceLocation: sourceLocation)
            }
            #endif
        }
    }
}
