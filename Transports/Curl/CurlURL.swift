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
        var scheme = scheme
        var authority = authority
        var path = path
        return scheme.withUTF8 { scheme in
            authority.withUTF8 { authority in
                path.withUTF8 { path in
                    let count = scheme.count + 3 + authority.count + path.count + 1
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer in
                        var end = buffer.initialize(fromContentsOf: scheme)
                        for byte in "://".utf8 {
                            buffer.initializeElement(at: end, to: byte)
                            end += 1
                        }
                        end = buffer[end...].initialize(fromContentsOf: authority)
                        end = buffer[end...].initialize(fromContentsOf: path)
                        buffer.initializeElement(at: end, to: 0)
                        return buffer.withMemoryRebound(to: CChar.self) {
                            ccurl_easy_setopt_string(easy, CURLOPT_URL, $0.baseAddress)
                        }
                    }
                }
            }
        }
    }
}
