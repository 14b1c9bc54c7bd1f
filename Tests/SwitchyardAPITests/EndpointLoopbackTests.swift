import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardTraffic
import Testing

@Suite struct EndpointLoopbackTests {
    @Test(arguments: TransportKind.allCases)
    func decodesAtAKeyPathOverTheWire(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let json = #"{"code": 0, "data": {"list": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]}}"#
            let response = try await api.response(echoing([Item].self, json, at: "data.list"), userInfo: ["screen": "shelf"])
            #expect(response.value.map(\.id) == ["a", "b"])
            #expect(response.info.head.status == .ok)
            #expect(response.info.userInfo == ["screen": "shelf"])
            #expect(response.info.decodingTime != nil)
            #expect(response.info.source == .network)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func mapsAModelOverTheWire(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let book = try await api.value(echoing(Book.self, bookJSON))
            #expect(book.authors == ["Frank Herbert", "Brian Herbert"])
            #expect(book.price == 9.5)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aWrongTypeFailsTheCallWithTheJSONPath(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let json = #"{"data": {"list": [{"id": "a", "title": "A"}, {"id": null, "title": "B"}]}}"#
            let state = await api.call(echoing([Item].self, json, at: "data.list")).result()
            #expect(state.error?.kind == .decoding)
            #expect(state.error?.message == "data.list[1].id: expected a string, found null")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func noDataFor204NullAndAnEmptyBodyButAnEmptyListIsAValue(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let noContent = await api.call(Endpoint<[Item]>(.get, "/status/204", at: "data")).result()
            #expect(noContent.name == "noData")
            let emptyList = await api.call(echoing([Item].self, #"{"data": {"list": []}}"#, at: "data.list")).result()
            #expect(emptyList.name == "succeeded")
            #expect(try await api.value(echoing([Item].self, #"{"data": {"list": []}}"#, at: "data.list")) == [])
            let askedFor = await api.call(echoing([Item].self, #"{"data": {"list": []}}"#, at: "data.list").emptyMeansNoData()).result()
            #expect(askedFor.name == "noData", "a screen that wants no data for an empty list asks for it")
            let emptyObject = await api.call(echoing(JSONValue.self, #"{"data": {}}"#, at: "data")).result()
            #expect(emptyObject.name == "succeeded")
            let nullValue = await api.call(echoing([Item].self, #"{"data": null}"#, at: "data")).result()
            #expect(nullValue.name == "noData")
            let emptyBody = await api.call(echoing([Item].self, "", at: "data")).result()
            #expect(emptyBody.name == "noData")
            let deleted = try await api.value(Endpoint<NoContent>(.delete, "/status/204", decoding: .ignoringBody))
            #expect(deleted == NoContent())
            let noValue = await #expect(throws: SwitchyardError.self) { try await api.value(Endpoint<[Item]>(.get, "/status/204")) }
            #expect(noValue?.kind == .noData)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anHTMLPageIsAContentTypeErrorNotADecodingError(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let endpoint = echoing([Item].self, "<html><body>Service down</body></html>", contentType: "text/html; charset=utf-8")
            let state = await api.call(endpoint).result()
            #expect(state.error?.kind == .unexpectedContentType)
            #expect(state.error?.message.contains("text/html") == true)
            #expect(state.error?.response?.status == .ok)
        }
    }

    @Test func aStatusOutsideTheSuccessSetIsAnHTTPStatusError() async throws {
        try await withAPI { api, _ in
            let state = await api.call(Endpoint<[Item]>(.get, "/status/404")).result()
            #expect(state.error?.kind == .httpStatus)
            #expect(state.error?.response?.status.code == 404)
            let accepted = await api.call(Endpoint<String>(.get, "/status/404", decoding: .text).succeeding(on: [404])).result()
            #expect(accepted.value == "status 404\n")
        }
    }

    @Test func anEnvelopeCodeBecomesAnAPIErrorWithAPopUp() async throws {
        let bus = EventBus()
        var popUps = PopUpPolicy()
        popUps.add(.all, PopUpMessages(kinds: [.api: "The library could not do that."]))
        let events = CollectedEvents(bus)
        let envelope = Envelope(codePath: "code", messagePath: "msg", successCodes: [0])
        try await withAPI(configuration: ClientConfiguration(events: bus, popUps: popUps), envelopes: [(.all, envelope)]) { api, _ in
            let failing = echoing([Item].self, #"{"code": 1001, "msg": "token expired", "data": null}"#, at: "data.list")
            let state = await api.call(failing, userInfo: ["row": "7"]).result()
            #expect(state.error?.kind == .api)
            #expect(state.error?.apiFailure == APIFailure(code: .integer(1001), serverMessage: "token expired"))
            let ok = echoing([Item].self, #"{"code": 0, "msg": "ok", "data": {"list": [{"id": "a", "title": "A"}]}}"#, at: "data.list")
            let items = try await api.value(ok)
            #expect(items.count == 1)
            let failed = await eventually { events.all.contains { if case .failed = $0.kind { true } else { false } } }
            #expect(failed)
            let event = events.all.first { if case .failed = $0.kind { true } else { false } }
            #expect(event?.popUp?.message == "The library could not do that.")
            #expect(event?.userInfo == ["row": "7"])
        }
    }

    @Test func theDecodePhaseReachesTimingStatistics() async throws {
        let stats = TimingStats()
        var configuration = ClientConfiguration()
        configuration.plugins.append(.timingStats(stats))
        try await withAPI(configuration: configuration) { api, _ in
            _ = try await api.value(echoing(Book.self, bookJSON))
            let phases = await waitForEndpoint(stats, path: "/echo/body")?.phases.map(\.name) ?? []
            #expect(phases.contains("decoding"), "\(phases)")
            #expect(phases.contains("ttfb"))
        }
    }

    @Test func scopeParametersAreAddedToQueryAndJSONBody() async throws {
        let rule = ParameterRule(
            scope: RequestScope(pathPrefixes: ["/echo"]),
            query: ["app_version": .constant("4.2"), "locale": .computed { "de DE" }],
            bodyFields: ["client": .constant("ios")])
        let other = ParameterRule(scope: RequestScope(pathPrefixes: ["/elsewhere"]), query: ["never": .constant("1")])
        try await withAPI(parameters: [rule, other]) { api, _ in
            struct Payload: Codable, Sendable {
                var name: String
                var client: String?
            }
            let endpoint = Endpoint<Payload>(.post, "/echo/body").query("page", 2).body(.json(Payload(name: "Ada", client: nil)))
            let request = try api.request(for: endpoint)
            #expect(request.head.path == "/echo/body?page=2&app_version=4.2&locale=de%20DE")
            let echoed = try await api.value(endpoint)
            #expect(echoed.name == "Ada")
            #expect(echoed.client == "ios")
        }
    }

    @Test func pathParametersAreEncodedAndAMissingOneIsAnInvalidRequest() async throws {
        try await withAPI { api, _ in
            let endpoint = Endpoint<String>(.get, "/echo/users/{id}", decoding: .text)
            let error = #expect(throws: SwitchyardError.self) { try api.request(for: endpoint) }
            #expect(error?.kind == .invalidRequest)
            #expect(error?.message.contains("'id'") == true)
            let request = try api.request(for: endpoint.parameter("id", "a b/c"))
            #expect(request.head.path == "/echo/users/a%20b%2Fc")
        }
    }

    @Test func formAndMultipartBodiesReachTheServer() async throws {
        try await withAPI { api, _ in
            let form = try await api.value(
                Endpoint<String>(.post, "/echo/body", decoding: .text)
                    .body(.form([QueryItem("user", "ada lovelace"), QueryItem("x", "1&2")])))
            #expect(form == "user=ada%20lovelace&x=1%262")
            let multipart = MultipartForm(
                parts: [
                    .field("title", "Cat"),
                    .file(
                        "photo", filename: "cat.txt", contentType: "text/plain",
                        bytes: Array("meow".utf8))
                ], boundary: "b0")
            let echoed = try await api.value(Endpoint<String>(.post, "/echo/body", decoding: .text).body(.multipart(multipart)))
            #expect(
                echoed == "--b0\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nCat\r\n--b0\r\n"
                    + "Content-Disposition: form-data; name=\"photo\"; filename=\"cat.txt\"\r\nContent-Type: text/plain\r\n\r\nmeow\r\n--b0--\r\n"
            )
        }
    }
}

/// Waits until `stats` has folded a call for `path` (statistics fold when the record completes).
func waitForEndpoint(_ stats: TimingStats, path: String) async -> TimingSnapshot.Endpoint? {
    var found: TimingSnapshot.Endpoint?
    _ = await eventually {
        found = stats.snapshot().endpoints.first { $0.path == path && $0.phases.contains { $0.name == "decoding" } }
        return found != nil
    }
    return found ?? stats.snapshot().endpoints.first { $0.path == path }
}

@Suite struct EndpointBatchTests {
    @Test(arguments: TransportKind.allCases)
    func valuesOfManyEndpointsInOrderAndFailFastCancelsTheRest(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, server in
            let endpoints = (0..<6).map { index in
                echoing([Item].self, #"{"data": {"list": [{"id": "\#(index)", "title": "T"}]}}"#, at: "data.list")
            }
            let values = await api.values(of: endpoints, maxConcurrency: 2)
            let ids = try values.map { try $0.get()[0].id }
            #expect(ids == (0..<6).map(String.init))

            let held = Endpoint<String>(.get, "/gate/api-batch-\(kind)?tag=api-batch-\(kind)", decoding: .text)
            let failing = Endpoint<String>(.get, "/status/404", decoding: .text)  // outside 200…299: fails
            let outcomes = await api.values(of: [held, failing], mode: .failFast)
            if case .failure(let error) = outcomes[0] { #expect(error.kind == .cancelled) } else { Issue.record("not cancelled") }
            if case .failure(let error) = outcomes[1] { #expect(error.kind != .cancelled) } else { Issue.record("no failure") }
            #expect(await server.waitForDisconnect(tag: "api-batch-\(kind)", timeout: .seconds(30)))
        }
    }
}
