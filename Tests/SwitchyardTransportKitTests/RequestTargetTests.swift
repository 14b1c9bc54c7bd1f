import HTTPTypes
import SwitchyardTransportKit
import Testing

/// The absolute URL a transport hands its library, built from the request head's parts.
struct RequestTargetTests {
    @Test func joinsSchemeAuthorityAndPath() {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "example.com:8443", path: "/a/b?c=d")
        #expect(RequestTarget.absoluteURL(of: head) == "https://example.com:8443/a/b?c=d")
    }

    @Test func aHeadWithoutAPathNamesTheRoot() {
        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: nil)
        #expect(RequestTarget.absoluteURL(of: head) == "http://127.0.0.1/")
    }

    @Test func aHeadWithoutSchemeOrAuthorityHasNone() {
        #expect(RequestTarget.absoluteURL(of: HTTPRequest(method: .get, scheme: nil, authority: "h", path: "/")) == nil)
        #expect(RequestTarget.absoluteURL(of: HTTPRequest(method: .get, scheme: "http", authority: nil, path: "/")) == nil)
    }

    @Test func keepsNonASCIIPartsWhole() {
        let head = HTTPRequest(method: .get, scheme: "http", authority: "bücher.example", path: "/größe")
        #expect(RequestTarget.absoluteURL(of: head) == "http://bücher.example/größe")
    }
}
