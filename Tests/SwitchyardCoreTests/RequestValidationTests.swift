import HTTPTypes
import Switchyard
import SwitchyardTesting
import Testing

@Suite struct RequestValidationTests {
    @Test(arguments: ["not a url", "/relative/path", "ftp://example.com/file", ""])
    func badURLsAreInvalidRequests(url: String) {
        let error = #expect(throws: SwitchyardError.self) { _ = try Request(url: url) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.isEmpty == false)
    }

    @Test(arguments: ["a\r\nInjected: yes", "line\nfeed", "nul\u{0}byte"])
    func headerValuesWithControlCharactersAreRefused(value: String) {
        do {
            _ = try Request(url: "http://example.test/", headers: ["X-Test": value])
            Issue.record("the header was accepted")
        } catch {
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("X-Test"))
        }
    }

    @Test func invalidHeaderNamesAreRefused() {
        let error = #expect(throws: SwitchyardError.self) {
            _ = try Request(url: "http://example.test/", headers: ["Bad Name": "x"])
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func headersKeepOrderRepeatsAndCase() throws {
        let request = try Request(
            url: "http://example.test/a?b=c",
            headers: [
                "X-One": "1", "x-two": "2", "X-One": "again"
            ])
        #expect(request.head.headerFields.map(\.name.rawName) == ["X-One", "x-two", "X-One"])
        #expect(request.head.headerFields[values: HTTPField.Name("x-one")!] == ["1", "again"])
        #expect(request.head.path == "/a?b=c")
    }

    @Test func theClientRefusesAHeadBuiltByHandWithABadScheme() async {
        let head = HTTPRequest(method: .get, scheme: "gopher", authority: "example.test", path: "/")
        let stub = StubTransport.status(.ok)
        let error = await #expect(throws: SwitchyardError.self) {
            _ = try await Client(transport: stub, interceptors: []).send(Request(head))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(stub.callCount == 0)
    }
}

@Suite struct SchemeValidationTests {
    @Test(arguments: ["http://example.test/", "HTTPS://example.test/", "Http://example.test/"])
    func httpSchemesAreAcceptedInAnyCase(url: String) throws {
        _ = try Request(url: url)
    }
}
