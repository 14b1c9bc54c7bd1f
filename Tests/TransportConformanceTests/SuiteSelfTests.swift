import HTTPTypes
import Switchyard
import SwitchyardConformance
import SwitchyardCurl
import Testing

/// The suite must be able to fail: broken transports fail the checks that describe what they break,
/// and declared limitations are honoured only while they are true.
@Suite("Conformance suite catches broken transports", .timeLimit(.minutes(2)))
struct SuiteSelfTests {
    /// Wraps curl and breaks one behaviour.
    static func broken(
        _ name: String, _ alter: @escaping @Sendable (Response) -> Response = { $0 },
        onError: @escaping @Sendable (SwitchyardError) throws -> Response = { throw $0 }
    ) -> ConformanceSubject {
        ConformanceSubject(name: name) {
            let curl = CurlTransport()
            return ClosureTransport { request, context in
                do {
                    return alter(try await curl.send(request, context: context))
                } catch let error as SwitchyardError {
                    return try onError(error)
                }
            }
        }
    }

    func expectFailure(_ id: String, on subject: ConformanceSubject) async throws {
        let check = try #require(TransportConformance.check(id))
        await #expect(throws: ConformanceFailure.self) { _ = try await check.run(on: subject) }
    }

    @Test func reversedResponseHeadersFailTheOrderCheck() async throws {
        let subject = Self.broken("reversing") { response in
            var response = response
            response.head.headerFields = HTTPFields(response.head.headerFields.reversed())
            return response
        }
        try await expectFailure("response-header-order", on: subject)
    }

    @Test func swallowedErrorsFailTheFailureChecks() async throws {
        let subject = Self.broken(
            "swallowing",
            { response in
                var response = response
                if let body = response.body { response.body = HTTPBody(EndsQuietly(body: body)) }
                return response
            }, onError: { _ in Response(status: .ok) })
        try await expectFailure("truncated-content-length", on: subject)
        try await expectFailure("connection-refused", on: subject)
    }

    @Test func relabelledErrorsFailTheCancellationCheck() async throws {
        let subject = Self.broken("relabelling", onError: { error in throw SwitchyardError(.transport, error.message) })
        try await expectFailure("cancel-waiting-for-head", on: subject)
    }

    @Test func aStaleLimitationFails() async throws {
        let subject = ConformanceSubject(
            name: "curl",
            limitations: ["get": ConformanceLimitation("pretends it cannot GET", failsWith: .error(.connectionFailed))]
        ) { CurlTransport() }
        try await expectFailure("get", on: subject)
    }

    /// A transport that reverses response fields: it fails `response-header-order` on its field order.
    static func reversing(declaring expected: ExpectedConformanceFailure) -> ConformanceSubject {
        ConformanceSubject(
            name: "reversing",
            limitations: ["response-header-order": ConformanceLimitation("reverses on purpose", failsWith: expected)]
        ) {
            let curl = CurlTransport()
            return ClosureTransport { request, context in
                var response = try await curl.send(request, context: context)
                response.head.headerFields = HTTPFields(response.head.headerFields.reversed())
                return response
            }
        }
    }

    @Test func aTrueLimitationIsReportedWithItsReason() async throws {
        let subject = Self.reversing(declaring: .expectation(containing: "field order"))
        let check = try #require(TransportConformance.check("response-header-order"))
        let outcome = try await check.run(on: subject)
        guard case .limitation(let reason) = outcome else {
            Issue.record("expected a limitation, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("reverses on purpose"))
    }

    @Test func aDeclaredCheckFailingAnotherWayFails() async throws {
        try await expectFailure("response-header-order", on: Self.reversing(declaring: .error(.protocolViolation)))
        try await expectFailure("response-header-order", on: Self.reversing(declaring: .expectation(containing: "status")))
    }

    @Test func anExpectedErrorKindMatchesTheErrorBehindAFailedExpectation() {
        let error = SwitchyardError(.protocolViolation, "Failed writing header")
        let failure = ConformanceFailure("GET /malformed/no-reason-phrase failed: \(error)", cause: error)
        #expect(ExpectedConformanceFailure.error(.protocolViolation).matches(failure))
        #expect(ExpectedConformanceFailure.error(.protocolViolation, messageContaining: "writing header").matches(error))
        #expect(!ExpectedConformanceFailure.error(.protocolViolation, messageContaining: "trailer").matches(error))
        #expect(!ExpectedConformanceFailure.error(.connectionFailed).matches(failure))
        #expect(!ExpectedConformanceFailure.expectation(containing: "failed").matches(error))
    }

    @Test func checkIdentifiersAreUnique() {
        let ids = TransportConformance.checks.map(\.id)
        #expect(Set(ids).count == ids.count)
    }
}

/// A body that ends without an error where the wrapped body failed: a silently truncating transport.
struct EndsQuietly: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let body: HTTPBody

    struct AsyncIterator: AsyncIteratorProtocol {
        var wrapped: HTTPBody.AsyncIterator

        mutating func next() async throws -> ArraySlice<UInt8>? {
            do { return try await wrapped.next() } catch { return nil }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(wrapped: body.makeAsyncIterator()) }
}
