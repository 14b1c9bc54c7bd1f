import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestSupport
import Testing

@Suite struct SampleTransportTests {
    static let user = Endpoint<Item>(.post, "/echo/body", at: "data")
        .body(.bytes(Array(#"{"data": {"id": "live", "title": "From the server"}}"#.utf8), contentType: "application/json"))
        .sample(json: #"{"data": {"id": "sample", "title": "From the sample"}}"#)
        .sample(.failure(.connectionFailed("offline")))

    @Test func theSameEndpointWorksFromSamplesAndAgainstTheServer() async throws {
        let samples = SampleTransport(serving: [Self.user])
        let offline = try APIClient(client: Client(transport: samples, interceptors: []), baseURL: "https://api.example.com")
        #expect(try await offline.value(Self.user).id == "sample")
        let second = await offline.call(Self.user).result()
        #expect(second.error?.kind == .connectionFailed)
        #expect(try await offline.value(Self.user).id == "sample")  // samples cycle

        try await withAPI { api, _ in
            let live = try await api.value(Self.user)
            #expect(live.id == "live")
        }
    }

    @Test func routesByTemplateAndAnswers404ForUnknownPaths() async throws {
        let profile = Endpoint<Item>(.get, "/users/{id}", at: "data").sample(json: #"{"data": {"id": "1", "title": "Ada"}}"#)
        let api = try APIClient(
            client: Client(transport: SampleTransport(serving: [profile]), interceptors: []), baseURL: "https://api.example.com")
        #expect(try await api.value(profile.parameter("id", 7)).title == "Ada")
        let unknown = await api.call(Endpoint<Item>(.get, "/nothing/here")).result()
        #expect(unknown.error?.kind == .httpStatus)
        #expect(unknown.error?.response?.status == .notFound)
    }

    @Test func injectsFailuresAndDelaysThatHonourCancellation() async throws {
        let slow = Endpoint<Item>(.get, "/slow", at: "data")
            .sample(.json(#"{"data": {"id": "1", "title": "late"}}"#, delay: .seconds(3600)))
        let transport = SampleTransport(serving: [slow], failEvery: 2)
        let api = try APIClient(client: Client(transport: transport, interceptors: []), baseURL: "https://api.example.com")
        let handle = api.call(slow)
        handle.cancel()
        #expect(await handle.result().name == "cancelled")

        let quick = Endpoint<Item>(.get, "/quick", at: "data").sample(json: #"{"data": {"id": "1", "title": "now"}}"#)
        let failing = try APIClient(
            client: Client(transport: SampleTransport(serving: [quick], failEvery: 2), interceptors: []),
            baseURL: "https://api.example.com")
        #expect(await failing.call(quick).result().name == "succeeded")
        #expect(await failing.call(quick).result().error?.kind == .connectionFailed)
        #expect(await failing.call(quick).result().name == "succeeded")
    }

    @Test func aSampleFileIsReadWhenServedAndAMissingOneNamesItself() async throws {
        let path = "/tmp/switchyard-sample-\(UInt64.random(in: 0..<UInt64.max)).json"
        try Data(#"{"data": {"id": "f", "title": "file"}}"#.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = Endpoint<Item>(.get, "/file", at: "data").sample(.jsonFile(path))
        let missing = Endpoint<Item>(.get, "/missing", at: "data").sample(.jsonFile("/nonexistent/sample.json"))
        let api = try APIClient(
            client: Client(transport: SampleTransport(serving: [fromFile, missing]), interceptors: []),
            baseURL: "https://api.example.com")
        #expect(try await api.value(fromFile).title == "file")
        let failure = await api.call(missing).result().error
        #expect(failure?.message.contains("/nonexistent/sample.json") == true)
    }
}
