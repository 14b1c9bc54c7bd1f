import CCurl
import HTTPTypes

/// A request's absolute URL as its three parts, joined only where libcurl takes it.
///
/// The parts are the request head's own strings (short ones are stored inline, so keeping them
/// allocates and retains nothing); the joined form is written to a stack buffer for
/// `CURLOPT_URL`, which copies it, instead of being built as a string for every request.
struct CurlURL: Equatable, Sendable {
    /// `http` or `https`.
    let scheme: String
    /// Host and optional port.
    let authority: String
    /// Path and query.
    let path: String

    /// The URL of `head`, with `http` and `/` where it lacks a scheme or a path.
    init(_ head: HTTPRequest) {
        scheme = head.scheme ?? "http"
        authority = head.authority ?? ""
        path = head.path ?? "/"
    }

    /// Whether the scheme is `https`.
    var isHTTPS: Bool { scheme == "https" }

    /// Sets the URL on `easy` (`CURLOPT_URL`).
    /// - Returns: libcurl's result code.
    func set(on easy: UnsafeMutableRawPointer) -> CURLcode {
        let count = scheme.utf8.count + 3 + authority.utf8.count + path.utf8.count + 1
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count) { buffer in
            var end = 0
            func write(_ part: String) {
                for byte in part.utf8 {
                    buffer.initializeElement(at: end, to: CChar(bitPattern: byte))
                    end += 1
                }
            }
            write(scheme)
            write("://")
            write(authority)
            write(path)
            buffer.initializeElement(at: end, to: 0)
            return ccurl_easy_setopt_string(easy, CURLOPT_URL, buffer.baseAddress)
        }
    }
}
