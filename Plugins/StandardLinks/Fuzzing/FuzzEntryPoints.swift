import Foundation
import HTTPTypes
import SwitchyardCore

/// Entry points for the fuzzers in `Fuzz/`: the code of this module that turns bytes from the
/// network into values, each callable with arbitrary input. Not API: `@_spi(Fuzzing)` only.
@_spi(Fuzzing)
public enum StandardLinksFuzzEntryPoints {
    /// Parses a `Retry-After` value.
    public static func retryAfter(_ text: String) {
        _ = RetryAfter.delay(from: text, now: Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// Resolves a redirect's `Location` against a fixed request, as the redirect interceptor does,
    /// for each redirect status.
    public static func redirectLocation(_ location: String) {
        guard let value = HTTPField(name: .location, value: location).value as String? else { return }
        let request = HTTPRequest(
            method: .post, scheme: "https", authority: "api.example.com:8443",
            path: "/a/b/c?q=1", headerFields: [.authorization: "Bearer x", .contentType: "a/b"])
        for status in [301, 302, 303, 307, 308] {
            let response = HTTPResponse(status: .init(code: status), headerFields: [.location: value])
            _ = RedirectStep(response: response, request: request, strippedHeaders: [.authorization])
        }
    }
}
