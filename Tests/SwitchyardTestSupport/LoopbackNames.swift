public import Switchyard

extension Plugin {
    /// Sends requests for these host names, whatever their port, to `127.0.0.1` as curl's
    /// `--resolve NAME:PORT:127.0.0.1` does, with no resolver involved: the links before it (the
    /// cookie jar, redirects, retry) see the name; the transport connects to `127.0.0.1` at the same
    /// port with `Host: NAME:PORT`. So a test reaches the loopback server as `home.example.org` on
    /// every transport.
    ///
    /// ```swift
    /// configuration.plugins.append(.loopbackNames(["home.example.org", "sub.home.example.org"]))
    /// try await client.send(try Request(url: "http://sub.home.example.org:\(server.port)/cookies/echo"))
    /// ```
    ///
    /// An attempt plugin in the innermost layer, named `loopbackNames`; `http` only (a TLS name would
    /// not match the address).
    /// - Parameter names: The host names, lower-case.
    /// - Returns: The plugin.
    public static func loopbackNames(_ names: Set<String>) -> Plugin {
        Plugin(
            name: "loopbackNames", position: .attempt, layer: .nextToTransport,
            interceptors: [
                ClosureInterceptor(name: "loopbackNames") { request, _, next in
                    var request = request
                    if let authority = request.head.authority, let colon = authority.lastIndex(of: ":"),
                        names.contains(authority[..<colon].lowercased())
                    {
                        request.head.headerFields[HTTPField.Name("Host")!] = authority
                        request.head.authority = "127.0.0.1" + authority[colon...]
                    }
                    return try await next(request)
                }
            ])
    }
}
