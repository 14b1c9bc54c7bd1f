import Foundation
import HTTPTypes
import Switchyard
import SwitchyardObservability
import SwitchyardTesting
import Testing

/// The HAR `log.entries` of `recorder`, parsed.
private func harEntries(_ recorder: HARRecorder) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(recorder.json().utf8)) as? [String: Any]
    let log = try #require(object?["log"] as? [String: Any])
    return try #require(log["entries"] as? [[String: Any]])
}

/// A stub that redirects `/start` to `location` and answers everything else 200 `ok`.
private func redirectingStub(to location: String) -> StubTransport {
    StubTransport { request, _ in
        guard request.head.path?.hasPrefix("/start") == true else { return Response(status: .ok, body: Array("ok".utf8)) }
        var fields = HTTPFields()
        fields[.location] = location
        return Response(status: .found, headerFields: fields)
    }
}

@Suite struct QueryRedactionTests {
    static let defaultNames = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "passwd",
        "secret", "client_secret", "signature", "sig", "auth", "session", "code", "X-Amz-Signature",
        "X-Amz-Credential", "X-Amz-Security-Token", "X-Goog-Signature"
    ]

    // MARK: - The shared rule

    @Test(arguments: QueryRedactionTests.defaultNames)
    func everyDefaultNameIsMaskedInAnyCase(name: String) {
        let redaction = QueryRedaction()
        for spelling in [name, name.uppercased(), name.lowercased()] {
            let url = "https://api.test/v1/items?page=2&\(spelling)=VALUE-\(spelling)&sort=asc"
            #expect(redaction.redact(url) == "https://api.test/v1/items?page=2&\(spelling)=<redacted>&sort=asc")
        }
        #expect(LoggingConfiguration.defaultRedactedQueryParameters.contains(name.lowercased()))
    }

    @Test func otherParametersPathsAndFragmentsAreKept() {
        let redaction = QueryRedaction.standard
        #expect(redaction.redact("/search?q=token&keyword=x") == "/search?q=token&keyword=x")
        #expect(redaction.redact("/no/query") == "/no/query")
        #expect(redaction.redact("/a?token=1&token=2#token=3") == "/a?token=<redacted>&token=<redacted>#token=3")
        #expect(redaction.redact("/a?token&token=") == "/a?token&token=<redacted>")
        #expect(redaction.redact("/a?API%5FKEY=s3cret") == "/a?API%5FKEY=<redacted>")
    }

    @Test func userInformationLeavesAbsoluteURLsOnly() {
        let redaction = QueryRedaction.standard
        #expect(redaction.redact("https://ada:pw@api.test:8443/x?sig=abc") == "https://api.test:8443/x?sig=<redacted>")
        #expect(redaction.redact("/cb?next=http://ada:pw@b.test/") == "/cb?next=http://ada:pw@b.test/")
    }

    @Test func anEmptyListMasksNothingAndExtraNamesAreAdded() {
        #expect(QueryRedaction(parameterNames: []).redact("/a?token=t1&pin=1234") == "/a?token=t1&pin=1234")
        #expect(QueryRedaction(parameterNames: ["PIN"]).redact("/a?token=t1&pin=1234") == "/a?token=t1&pin=<redacted>")
    }

    @Test func urlValuedHeadersAreMasked() throws {
        let location = HTTPField(name: .location, value: "https://b.test/cb?code=abcd1234&state=s")
        #expect(QueryRedaction.standard.value(of: location) == "https://b.test/cb?code=<redacted>&state=s")
        let other = HTTPField(name: try #require(HTTPField.Name("X-Note")), value: "/x?token=t")
        #expect(QueryRedaction.standard.value(of: other) == "/x?token=t")
    }

    // MARK: - HAR

    @Test func harMasksTheURLTheQueryStringAndTheRedirectByDefault() async throws {
        let har = HARRecorder()
        let client = Client(transport: redirectingStub(to: "/next?access_token=AT-SECRET-2&page=3"), interceptors: [har.interceptor])
        _ = try await client.send(try Request(url: "https://api.test/start?token=T-SECRET-1&page=2"))
        let json = har.json()
        #expect(!json.contains("T-SECRET-1") && !json.contains("AT-SECRET-2"))
        let entry = try #require(try harEntries(har).first)
        let request = try #require(entry["request"] as? [String: Any])
        #expect(request["url"] as? String == "https://api.test/start?token=<redacted>&page=2")
        let query = try #require(request["queryString"] as? [[String: String]])
        #expect(query == [["name": "token", "value": "<redacted>"], ["name": "page", "value": "2"]])
        let response = try #require(entry["response"] as? [String: Any])
        #expect(response["redirectURL"] as? String == "/next?access_token=<redacted>&page=3")
    }

    @Test func harRecordsURLsAsTheyAreWhenOptedOutAndMasksExtraNames() async throws {
        let plain = HARRecorder(redactedQueryParameters: [])
        _ = try await Client(transport: StubTransport.status(.ok), interceptors: [plain.interceptor])
            .send(try Request(url: "https://api.test/a?token=T-VISIBLE"))
        let plainURL = try #require(try harEntries(plain).first?["request"] as? [String: Any])["url"] as? String
        #expect(plainURL == "https://api.test/a?token=T-VISIBLE")

        let extra = HARRecorder(redactedQueryParameters: LoggingConfiguration.defaultRedactedQueryParameters.union(["pin"]))
        _ = try await Client(transport: StubTransport.status(.ok), interceptors: [extra.interceptor])
            .send(try Request(url: "https://api.test/a?pin=4321&token=T-HIDDEN"))
        let url = try #require(try harEntries(extra).first?["request"] as? [String: Any])["url"] as? String
        #expect(url == "https://api.test/a?pin=<redacted>&token=<redacted>")
    }

    // MARK: - Events

    @Test func eventsNeverCarryCredentialQueryValues() async throws {
        let bus = EventBus()
        let events = Lock<[ExchangeEvent]>([])
        bus.addObserver { event in events.withLock { $0.append(event) } }
        let client = Client(
            transport: redirectingStub(to: "https://b.test/cb?token=T-SECRET-3"),
            interceptors: [
                EventsInterceptor(bus: bus), RedirectInterceptor()
            ])
        _ = try await client.send(try Request(url: "https://a.test/start?sig=S-SECRET-4"))
        let seen = events.withLock { $0 }
        #expect(seen.map(\.kind.name) == ["started", "redirected", "succeeded"])
        let texts =
            seen.map(\.description)
            + seen.compactMap { event in
                event.plugin(Redirected.self)?.location
            }
        #expect(texts.count == 4)
        for text in texts { #expect(!text.contains("T-SECRET-3") && !text.contains("S-SECRET-4"), "\(text)") }
        #expect(seen.first?.description.contains("/start?sig=<redacted>") == true)
    }

    // MARK: - URL user information

    @Test func urlCredentialsBecomeBasicAuthorization() throws {
        let request = try Request(url: "https://ada:s%3Acret@api.test/x")
        #expect(request.head.headerFields[.authorization] == "Basic " + Data("ada:s:cret".utf8).base64EncodedString())
        #expect(request.head.authority == "api.test")
        let userOnly = try Request(url: "https://ada@api.test/")
        #expect(userOnly.head.headerFields[.authorization] == "Basic " + Data("ada:".utf8).base64EncodedString())
        #expect(try Request(url: "https://api.test/").head.headerFields[.authorization] == nil)
    }

    @Test func anExplicitAuthorizationHeaderWinsOverURLCredentials() throws {
        let request = try Request(url: "https://ada:pw@api.test/", headers: ["authorization": "Bearer mine"])
        #expect(request.head.headerFields[values: .authorization] == ["Bearer mine"])
    }

    @Test func anInvalidURLErrorDoesNotRepeatItsCredentials() {
        let error = #expect(throws: SwitchyardError.self) { try Request(url: "api.test/x?token=T-SECRET-5&page=2") }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("api.test/x?token=<redacted>&page=2") == true, "\(error?.message ?? "")")
    }
}
