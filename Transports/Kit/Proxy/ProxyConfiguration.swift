public import SwitchyardCore

/// Which proxy, if any, a transport sends each request through: the same on every transport.
///
/// `http://` requests go to ``httpProxy`` as absolute-form requests (`GET http://host/path`), or
/// through a `CONNECT` tunnel when ``tunnelsHTTP`` is set; `https://` requests go to ``httpsProxy``
/// through a `CONNECT` tunnel, so TLS runs end to end and the proxy sees only the host and port.
/// Hosts in ``noProxy`` go direct.
///
/// ```swift
/// var curl = CurlTransport.Configuration()
/// curl.proxy = try ProxyConfiguration(url: "http://alice:s3cret@proxy.internal:3128", noProxy: "localhost,.internal")
/// // or, as curl reads them: http_proxy, HTTPS_PROXY/https_proxy, ALL_PROXY/all_proxy, NO_PROXY/no_proxy
/// curl.proxy = try ProxyConfiguration.fromEnvironment()
/// ```
///
/// A transport's `proxy` is `nil` by default: requests go direct and the environment is **not**
/// read (the curl transport tells libcurl so explicitly). Read it with ``fromEnvironment(_:)`` when
/// you want curl's behaviour; `yard request` does by default.
///
/// Credentials are sent as `Proxy-Authorization: Basic` and never appear in a description, a log
/// line or an error message (``ProxyServer/description`` shows `<redacted>`). A proxy that refuses
/// (`407`, or any non-2xx answer to `CONNECT`) or cannot be reached fails the request with
/// ``SwitchyardError/Kind/connectionFailed`` naming the proxy (``ProxyFailure``).
public struct ProxyConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// The proxy for `http://` requests; `nil`: they go direct.
    public var httpProxy: ProxyServer?
    /// The proxy for `https://` requests (through `CONNECT`); `nil`: they go direct.
    public var httpsProxy: ProxyServer?
    /// Hosts that go direct whatever their scheme.
    public var noProxy: NoProxyList
    /// Whether `http://` requests, too, go through a `CONNECT` tunnel instead of being forwarded in
    /// absolute form (curl's `CURLOPT_HTTPPROXYTUNNEL`). The AsyncHTTPClient transport always
    /// tunnels, whatever this says.
    public var tunnelsHTTP: Bool

    /// Creates a configuration.
    /// - Parameters:
    ///   - httpProxy: The proxy for `http://` requests (`nil`: direct).
    ///   - httpsProxy: The proxy for `https://` requests (`nil`: direct).
    ///   - noProxy: Hosts that go direct.
    ///   - tunnelsHTTP: Whether `http://` requests use `CONNECT` too.
    public init(
        httpProxy: ProxyServer?, httpsProxy: ProxyServer?, noProxy: NoProxyList = .none,
        tunnelsHTTP: Bool = false
    ) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
        self.tunnelsHTTP = tunnelsHTTP
    }

    /// One proxy for both schemes, as curl's `--proxy` sets it.
    /// - Parameters:
    ///   - url: `[http://][user[:password]@]host[:port]` (see ``ProxyServer/init(url:)``).
    ///   - noProxy: Hosts that go direct, e.g. `"localhost,.internal"`.
    ///   - tunnelsHTTP: Whether `http://` requests use `CONNECT` too.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` for a URL that is not a plain-HTTP proxy.
    public init(url: String, noProxy: NoProxyList = .none, tunnelsHTTP: Bool = false) throws(SwitchyardError) {
        let server = try ProxyServer(url: url)
        self.init(httpProxy: server, httpsProxy: server, noProxy: noProxy, tunnelsHTTP: tunnelsHTTP)
    }

    /// The proxy a request to `scheme://authority` goes through, or `nil` when it goes direct.
    ///
    /// Cheap: no allocation unless ``noProxy`` has entries, and then only for an IPv6 host.
    /// - Parameters:
    ///   - scheme: `http` or `https` (other schemes go direct).
    ///   - authority: `host[:port]`, as in the request head.
    public func proxy(forScheme scheme: String?, authority: String?) -> ProxyServer? {
        guard let scheme else { return nil }
        let server: ProxyServer?
        if scheme == "https" || scheme.lowercased() == "https" {
            server = httpsProxy
        } else if scheme == "http" || scheme.lowercased() == "http" {
            server = httpProxy
        } else {
            server = nil
        }
        guard let server else { return nil }
        if !noProxy.isEmpty, var authority {
            if authority.withUTF8({ noProxy.matches(Self.host(ofAuthority: $0)) }) { return nil }
        }
        return server
    }

    /// Whether a request to `scheme` through `proxy` is tunnelled with `CONNECT`.
    public func tunnels(scheme: String?) -> Bool {
        tunnelsHTTP || scheme?.lowercased() == "https"
    }

    /// The host part of the UTF-8 bytes of `host[:port]` or `[v6]:port` (brackets kept).
    static func host(ofAuthority bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return bytes }
            return UnsafeBufferPointer(rebasing: bytes[...close])
        }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[..<colon])
    }

    /// `http=…, https=…, noproxy=…` with passwords redacted.
    public var description: String {
        var parts = [
            "http=\(httpProxy.map(String.init(describing:)) ?? "direct")",
            "https=\(httpsProxy.map(String.init(describing:)) ?? "direct")"
        ]
        if !noProxy.isEmpty { parts.append("noproxy=\(noProxy)") }
        if tunnelsHTTP { parts.append("tunnelsHTTP") }
        return "ProxyConfiguration(" + parts.joined(separator: ", ") + ")"
    }
}
