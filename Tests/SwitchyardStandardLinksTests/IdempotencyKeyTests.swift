import Foundation
import HTTPTypes
import Switchyard
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTesting
import SwitchyardTransportKit
import Testing

/// A retry policy with no real waiting and automatic idempotency keys.
private func keyingPolicy(_ keys: IdempotencyKeys? = .automatic) -> RetryPolicy {
    var policy = RetryPolicy(backoff: RetryBackoff(random: { 0 }))
    policy.idempotencyKeys = keys
    return policy
}

/// Whether `value` is the draft's form of a key: a lower-case UUID in double quotes.
private func isStructuredUUID(_ value: String) -> Bool {
    guard value.count == 38, value.first == "\"", value.last == "\"" else { return false }
    let inner = String(value.dropFirst().dropLast())
    return UUID(uuidString: inner) != nil && inner == inner.lowercased()
}

@Suite struct IdempotencyKeyTests {
    @Test func aPostGetsOneKeyForAllItsAttemptsAndEachCallItsOwn() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: keyingPolicy())])
        _ = try await client.send(try Request(method: .post, url: "http://a.test/charges", body: HTTPBody("x")))
        _ = try await client.send(try Request(method: .patch, url: "http://a.test/charges/1", body: HTTPBody("y")))
        let keys = stub.requests.map { $0.head.headerFields[.idempotencyKey] ?? "-" }
        #expect(keys.count == 6)  // both retried: three attempts each
        #expect(Set(keys[0..<3]).count == 1)
        #expect(Set(keys[3..<6]).count == 1)
        #expect(keys[0] != keys[3])
        #expect(keys.allSatisfy(isStructuredUUID))
    }

    @Test func idempotentMethodsGetNoKeyAndTheAppsOwnKeyIsKept() async throws {
        let stub = StubTransport.status(.ok)
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: keyingPolicy())])
        for method in [HTTPRequest.Method.get, .put, .delete, .head, .options] {
            _ = try await client.send(try Request(method: method, url: "http://a.test/"))
        }
        _ = try await client.send(try Request(method: .post, url: "http://a.test/", headers: ["Idempotency-Key": "order-42"]))
        let keys = stub.requests.map { $0.head.headerFields[.idempotencyKey] }
        #expect(keys == [nil, nil, nil, nil, nil, "order-42"])
    }

    @Test func withoutTheSettingAPostHasNoKeyAndIsNotRetried() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let client = Client(transport: stub, interceptors: [RetryInterceptor(policy: keyingPolicy(nil))])
        _ = try await client.send(try Request(method: .post, url: "http://a.test/", body: HTTPBody("x")))
        #expect(stub.callCount == 1)
        #expect(stub.requests[0].head.headerFields[.idempotencyKey] == nil)
    }

    @Test func aRequestCanAskForAKeyOrRefuseOne() async throws {
        let stub = StubTransport.status(.serviceUnavailable)
        let plain = Client(transport: stub, interceptors: [RetryInterceptor(policy: keyingPolicy(nil))])
        var asking = try Request(method: .post, url: "http://a.test/", body: HTTPBody("x"))
        asking.options.retry = .addingIdempotencyKey
        _ = try await plain.send(asking)
        #expect(stub.callCount == 3)
        #expect(stub.requests.allSatisfy { $0.head.headerFields[.idempotencyKey].map(isStructuredUUID) == true })

        let refusing = StubTransport.status(.serviceUnavailable)
        let keyed = Client(transport: refusing, interceptors: [RetryInterceptor(policy: keyingPolicy())])
        var without = try Request(method: .post, url: "http://a.test/", body: HTTPBody("x"))
        without.options.retry = RetryOverride(addsIdempotencyKey: false)
        _ = try await keyed.send(without)
        #expect(refusing.callCount == 1)
        #expect(refusing.requests[0].head.headerFields[.idempotencyKey] == nil)
    }

    @Test func everyRedirectHopOfACallSendsTheSameKey() async throws {
        let stub = StubTransport { request, _ in
            request.head.path == "/old"
                ? Response(status: .temporaryRedirect, headerFields: [.location: "/new"])
                : Response(status: .ok)
        }
        let client = Client(
            transport: stub, interceptors: [RedirectInterceptor(), RetryInterceptor(policy: keyingPolicy())])
        _ = try await client.send(try Request(method: .post, url: "http://a.test/old", body: HTTPBody("x")))
        let keys = stub.requests.map { $0.head.headerFields[.idempotencyKey] }
        #expect(stub.requests.map(\.head.path) == ["/old", "/new"])
        #expect(keys[0] != nil && keys[0] == keys[1])
    }

    @Test func aCustomKeyMakerIsUsedAndAnInvalidKeyIsNotSent() async throws {
        let stub = StubTransport.status(.ok)
        let bare = Client(
            transport: stub,
            interceptors: [RetryInterceptor(policy: keyingPolicy(IdempotencyKeys(methods: [.post], makeKey: { "bare-token" })))])
        _ = try await bare.send(try Request(method: .post, url: "http://a.test/"))
        _ = try await bare.send(try Request(method: .patch, url: "http://a.test/"))  // not in the methods
        let broken = Client(
            transport: stub, interceptors: [RetryInterceptor(policy: keyingPolicy(IdempotencyKeys(makeKey: { "a\r\nb" })))])
        _ = try await broken.send(try Request(method: .post, url: "http://a.test/"))
        #expect(stub.requests.map { $0.head.headerFields[.idempotencyKey] } == ["bare-token", nil, nil])
    }
}

@Suite(.timeLimit(.minutes(2))) struct IdempotencyKeyLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func aPostIsRetriedWithTheSameKeyOnEveryAttempt(kind: TransportKind) async throws {
        var configuration = ClientConfiguration(redirects: nil, retry: keyingPolicy())
        configuration.retryBudget = nil
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let tag = "keyed-\(kind)"
            let response = try await client.send(
                try Request(method: .post, url: server.url("/idempotent/\(tag)/2"), body: HTTPBody("charge")))
            #expect(response.head.status == .ok)
            let key = String(try #require(response.text.split(separator: "=").last).dropLast())  // "ok after 2 key=K\n"
            #expect(isStructuredUUID(key))
            // Three arrivals, all three with that key.
            #expect(server.flakyArrivals(key: tag).count == 3)
            #expect(server.flakyArrivals(key: "\(tag) \(key)").count == 3)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func withoutTheSettingAPostIsSentOnce(kind: TransportKind) async throws {
        var configuration = ClientConfiguration(redirects: nil, retry: keyingPolicy(nil))
        configuration.retryBudget = nil
        try await withLoopbackClient(kind, configuration: configuration) { client, server in
            let tag = "plain-\(kind)"
            let response = try await client.send(
                try Request(method: .post, url: server.url("/idempotent/\(tag)/2"), body: HTTPBody("charge")))
            #expect(response.head.status == .serviceUnavailable)
            #expect(response.text == "fail 1 key=-\n")
            #expect(server.flakyArrivals(key: tag).count == 1)
        }
    }
}
