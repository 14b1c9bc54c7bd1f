import SwitchyardCore
import SwitchyardTransportKit

extension URLSessionTransport {
    /// The error every request fails with when `proxy` cannot be honoured (see
    /// ``Configuration/proxy``), or `nil` when it can.
    static func proxyRefusal(_ proxy: ProxyConfiguration?) -> SwitchyardError? {
        guard let proxy else { return nil }
        #if canImport(FoundationNetworking)
        // libcurl under FoundationNetworking reads the same variables the same way.
        if let environment = try? ProxyConfiguration.fromEnvironment(), environment == proxy { return nil }
        return .transportFailed(
            "URLSessionTransport cannot send through \(proxy): FoundationNetworking on Linux"
                + " gives libcurl no proxy setting, so only the proxy environment variables (http_proxy, https_proxy,"
                + " no_proxy, …) apply. Set those, use ProxyConfiguration.fromEnvironment(), or use the curl or"
                + " AsyncHTTPClient transport.")
        #else
        return .transportFailed(
            "URLSessionTransport cannot send through \(proxy): on Apple platforms the system's"
                + " proxy settings apply. Leave proxy nil, or use the curl or AsyncHTTPClient transport.")
        #endif
    }
}
