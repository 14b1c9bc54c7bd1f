import Switchyard
import Testing

@Suite struct ProxyConfigurationTests {
    // MARK: - The environment, as curl reads it

    @Test func upperCaseHTTPProxyIsIgnoredLikeCurl() throws {
        let configuration = try ProxyConfiguration.fromEnvironment(["HTTP_PROXY": "http://upper:3128"])
        #expect(configuration == nil)
        let lower = try #require(try ProxyConfiguration.fromEnvironment(["http_proxy": "lower:3128", "HTTP_PROXY": "upper:3128"]))
        #expect(lower.httpProxy == ProxyServer(host: "lower", port: 3128))
        #expect(lower.httpsProxy == nil)
    }

    @Test func httpsProxyPrefersLowerCaseThenUpperCase() throws {
        let both = try #require(try ProxyConfiguration.fromEnvironment(["https_proxy": "lower:1", "HTTPS_PROXY": "upper:2"]))
        #expect(both.httpsProxy?.host == "lower")
        #expect(both.httpProxy == nil)
        let upper = try #require(try ProxyConfiguration.fromEnvironment(["HTTPS_PROXY": "upper:2"]))
        #expect(upper.httpsProxy?.host == "upper")
    }

    @Test func allProxyIsTheFallbackForBothSchemes() throws {
        let configuration = try #require(
            try ProxyConfiguration.fromEnvironment([
                "ALL_PROXY": "all:8080", "https_proxy": "secure:443"
            ]))
        #expect(configuration.httpProxy?.host == "all")
        #expect(configuration.httpsProxy?.host == "secure")
        let lowerFirst = try #require(try ProxyConfiguration.fromEnvironment(["all_proxy": "a:1", "ALL_PROXY": "b:1"]))
        #expect(lowerFirst.httpProxy?.host == "a")
    }

    @Test func anEmptyVariableCountsAsSetAndMeansDirect() throws {
        let configuration = try #require(
            try ProxyConfiguration.fromEnvironment([
                "https_proxy": "", "HTTPS_PROXY": "upper:1", "ALL_PROXY": "all:1"
            ]))
        #expect(configuration.httpsProxy == nil)
        #expect(configuration.httpProxy?.host == "all")
    }

    @Test func noProxyPrefersLowerCase() throws {
        let configuration = try #require(
            try ProxyConfiguration.fromEnvironment([
                "http_proxy": "p:1", "no_proxy": "lower.example", "NO_PROXY": "upper.example"
            ]))
        #expect(configuration.noProxy.matches(host: "lower.example"))
        #expect(!configuration.noProxy.matches(host: "upper.example"))
        let upper = try #require(try ProxyConfiguration.fromEnvironment(["http_proxy": "p:1", "NO_PROXY": "upper.example"]))
        #expect(upper.noProxy.matches(host: "upper.example"))
    }

    @Test func anUnusableVariableIsNamedWithoutItsPassword() throws {
        let error = #expect(throws: SwitchyardError.self) {
            try ProxyConfiguration.fromEnvironment(["https_proxy": "socks5://bob:hunter2@proxy:1080"])
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("https_proxy") == true)
        #expect(error?.message.contains("hunter2") == false)
    }

    @Test func nothingSetMeansNoConfiguration() throws {
        #expect(try ProxyConfiguration.fromEnvironment([:]) == nil)
        #expect(try ProxyConfiguration.fromEnvironment(["NO_PROXY": "*", "PATH": "/bin"]) == nil)
    }

    // MARK: - Proxy URLs

    @Test func proxyURLsAreReadAsCurlReadsThem() throws {
        #expect(try ProxyServer(url: "proxy.internal") == ProxyServer(host: "proxy.internal", port: 1080))
        #expect(try ProxyServer(url: "http://proxy:3128/") == ProxyServer(host: "proxy", port: 3128))
        #expect(try ProxyServer(url: "HTTP://[::1]:8080") == ProxyServer(host: "::1", port: 8080))
        let withCredentials = try ProxyServer(url: "http://al%40ice:p%3Ass@proxy:3128")
        #expect(withCredentials.credentials == ProxyCredentials(user: "al@ice", password: "p:ss"))
        #expect(withCredentials.hostAndPort == "proxy:3128")
        #expect(try ProxyServer(url: "http://bob@proxy:1").credentials == ProxyCredentials(user: "bob", password: ""))
        for bad in ["https://proxy:443", "socks5://proxy", "http://proxy:port", "http://:3128", "proxy:70000"] {
            let error = #expect(throws: SwitchyardError.self, "\(bad)") { try ProxyServer(url: bad) }
            #expect(error?.kind == .invalidRequest, "\(bad)")
        }
    }

    @Test func descriptionsNeverShowThePassword() throws {
        let configuration = try ProxyConfiguration(url: "http://alice:hunter2@proxy:3128", noProxy: "localhost")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [
            String(describing: configuration), String(reflecting: configuration), dumped,
            String(describing: configuration.httpProxy), "\(configuration.httpsProxy?.credentials as Any)"
        ] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
        #expect(configuration.httpProxy?.description == "http://alice:<redacted>@proxy:3128")
    }

    // MARK: - NO_PROXY

    @Test func noProxyMatchesNamesAndTheirSubdomains() {
        let list: NoProxyList = " example.com , .internal,Mixed.Case "
        #expect(list.matches(host: "example.com"))
        #expect(list.matches(host: "www.example.com"))
        #expect(list.matches(host: "WWW.EXAMPLE.COM."))
        #expect(!list.matches(host: "notexample.com"))
        #expect(!list.matches(host: "example.com.evil"))
        #expect(list.matches(host: "internal"))
        #expect(list.matches(host: "api.internal"))
        #expect(list.matches(host: "mixed.case"))
    }

    @Test func noProxyStarMatchesEverything() {
        #expect(NoProxyList("*").matches(host: "anything.example"))
        #expect(NoProxyList("foo, *").matches(host: "10.1.2.3"))
        #expect(!NoProxyList("").matches(host: "anything"))
        #expect(NoProxyList(" , ").isEmpty)
    }

    @Test func noProxyMatchesIPAddressesAndRanges() {
        let list: NoProxyList = "127.0.0.1, 10.0.0.0/8, ::1, [fe80::1]"
        #expect(list.matches(host: "127.0.0.1"))
        #expect(!list.matches(host: "127.0.0.2"))
        #expect(list.matches(host: "10.200.3.4"))
        #expect(!list.matches(host: "11.0.0.1"))
        #expect(list.matches(host: "[::1]"))
        #expect(list.matches(host: "::1"))
        #expect(list.matches(host: "FE80::1"))
        #expect(!list.matches(host: "1.127.0.0.1"), "an IP entry is not a name suffix")
    }

    @Test func portsAreIgnored() throws {
        let configuration = try ProxyConfiguration(url: "proxy:3128", noProxy: "example.com:80, 10.0.0.1")
        #expect(configuration.proxy(forScheme: "http", authority: "example.com:8443") == nil)
        #expect(configuration.proxy(forScheme: "https", authority: "10.0.0.1:443") == nil)
        #expect(configuration.proxy(forScheme: "https", authority: "[::1]:443")?.host == "proxy")
        #expect(configuration.proxy(forScheme: "http", authority: "other.example")?.port == 3128)
    }

    @Test func theSchemeChoosesTheProxy() throws {
        let configuration = ProxyConfiguration(
            httpProxy: ProxyServer(host: "plain", port: 1),
            httpsProxy: ProxyServer(host: "secure", port: 2))
        #expect(configuration.proxy(forScheme: "http", authority: "a")?.host == "plain")
        #expect(configuration.proxy(forScheme: "HTTPS", authority: "a")?.host == "secure")
        #expect(configuration.proxy(forScheme: "ws", authority: "a") == nil)
        #expect(configuration.tunnels(scheme: "https"))
        #expect(!configuration.tunnels(scheme: "http"))
    }
}
