import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last server URL a transport parsed, so the calls of one generated client (which pass the
/// same URL every time) parse it once.
final class OpenAPIBaseURLCache: Sendable {
    private let last = Lock<(url: URL, base: OpenAPIRequestHead.Base)?>(nil)

    /// The parts of `url`, parsed once per distinct URL in a row.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when `url` has no scheme or host.
    func base(of url: URL) throws(SwitchyardError) -> OpenAPIRequestHead.Base {
        if let cached = last.withLock({ $0 }), cached.url == url { return cached.base }
        let base = try OpenAPIRequestHead.Base(url)
        last.withLock { $0 = (url, base) }
        return base
    }
}
