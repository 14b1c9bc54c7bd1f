public import SwitchyardCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ProxyConfiguration {
    /// The proxy settings of the environment, read exactly as libcurl reads them:
    ///
    /// | Requests | Variables, first set one wins |
    /// |---|---|
    /// | `http://` | `http_proxy` (lower case only: upper-case `HTTP_PROXY` is ignored, because a CGI server sets it from a request's `Proxy:` header), then `all_proxy`, `ALL_PROXY` |
    /// | `https://` | `https_proxy`, `HTTPS_PROXY`, then `all_proxy`, `ALL_PROXY` |
    /// | bypass | `no_proxy`, then `NO_PROXY` |
    ///
    /// A variable that is set but empty counts as set: `https_proxy=` sends `https://` requests direct
    /// even when `HTTPS_PROXY` or `ALL_PROXY` names a proxy (as in curl).
    /// - Returns: The configuration, or `nil` when neither scheme has a proxy.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` naming the variable whose URL is not a
    ///   plain-HTTP proxy (its value, which may hold a password, is not repeated).
    public static func fromEnvironment() throws(SwitchyardError) -> ProxyConfiguration? {
        try fromEnvironment(ProcessInfo.processInfo.environment)
    }

    /// The proxy settings of `environment`, read as ``fromEnvironment()`` reads the process's.
    /// - Parameter environment: The variables, by name.
    /// - Returns: The configuration, or `nil` when neither scheme has a proxy.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` naming the unusable variable.
    public static func fromEnvironment(_ environment: [String: String]) throws(SwitchyardError) -> ProxyConfiguration? {
        func first(_ names: [String]) -> (name: String, value: String)? {
            for name in names { if let value = environment[name] { return (name, value) } }
            return nil
        }
        func server(_ names: [String]) throws(SwitchyardError) -> ProxyServer? {
            guard let (name, value) = first(names), !value.trimmingASCIIWhitespace().isEmpty else { return nil }
            do {
                return try ProxyServer(url: value)
            } catch {
                throw .invalidRequest("The environment variable \(name) does not hold a usable proxy URL: \(error.message)")
            }
        }
        let http = try server(["http_proxy", "all_proxy", "ALL_PROXY"])
        let https = try server(["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"])
        guard http != nil || https != nil else { return nil }
        let noProxy = first(["no_proxy", "NO_PROXY"]).map { NoProxyList($0.value) } ?? .none
        return ProxyConfiguration(httpProxy: http, httpsProxy: https, noProxy: noProxy)
    }
}
