import CCurl
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

/// How a curl handle reaches the server through a proxy: which proxy, and whether through a
/// `CONNECT` tunnel (`CURLOPT_HTTPPROXYTUNNEL`).
struct CurlProxyRoute: Equatable {
    let server: ProxyServer
    let tunnels: Bool

    /// Whether `head` (a complete response head block) has the status 407.
    static func isProxyAuthenticationRequired(_ head: [UInt8]) -> Bool {
        // "HTTP/1.1 407" or "HTTP/2 407"
        guard let space = head.firstIndex(of: UInt8(ascii: " ")), head.count >= space + 4 else { return false }
        return head[space + 1] == UInt8(ascii: "4") && head[space + 2] == UInt8(ascii: "0")
            && head[space + 3] == UInt8(ascii: "7")
    }

    /// The failure of a transfer that went through `proxy`, when the proxy is what failed: it could
    /// not be reached, or it answered `CONNECT` with something other than 2xx.
    static func failure(
        _ code: CURLcode, handle: CurlEasyHandle, proxy: ProxyServer,
        request: HTTPRequest
    ) -> SwitchyardError? {
        let host = request.authority ?? "the server"
        let detail = handle.errorMessage.isEmpty ? String(cString: curl_easy_strerror(code)) : handle.errorMessage
        let cause = CurlError(code: Int(code.rawValue), message: detail)
        switch code {
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_PROXY:
            return ProxyFailure.unreachable(proxy: proxy, host: host, detail: detail, underlyingError: cause)
        default:
            var connectCode = 0
            guard ccurl_easy_getinfo_long(handle.raw, CURLINFO_HTTP_CONNECTCODE, &connectCode) == CURLE_OK,
                connectCode != 0, !(200..<300).contains(connectCode)
            else { return nil }
            return connectCode == 407
                ? ProxyFailure.authenticationRequired(proxy: proxy, host: host, underlyingError: cause)
                : ProxyFailure.refused(proxy: proxy, host: host, status: connectCode, underlyingError: cause)
        }
    }
}
