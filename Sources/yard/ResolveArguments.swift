import ArgumentParser
import HTTPTypes
import Switchyard

/// `--resolve HOST:PORT:ADDRESS` as curl has it: a request for `HOST` at `PORT` connects to `ADDRESS`
/// without asking a resolver, while everything above the transport (the URL, redirects, `-w`'s
/// `url_effective`, the cookie jar of `-b`/`-c`) keeps the name and the request says `Host: HOST:PORT`.
struct ResolveArguments: ParsableArguments {
    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Connect to ADDRESS for requests to HOST:PORT, keeping the name for Host and cookies (http:// only); repeatable.",
            valueName: "host:port:address"))
    var entries: [String] = []

    func validate() throws {
        do throws(SwitchyardError) {
            _ = try mapping()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// `HOST:PORT` (lower-cased) → `ADDRESS:PORT`, for every `--resolve`.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` for an entry that is not `HOST:PORT:ADDRESS`.
    func mapping() throws(SwitchyardError) -> [String: String] {
        var mapping: [String: String] = [:]
        for entry in entries {
            let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = UInt16(parts[1]), port > 0, !parts[2].isEmpty,
                !parts[2].contains(","), parts[2].allSatisfy({ !$0.isWhitespace })
            else {
                throw .invalidRequest(
                    "--resolve '\(entry)' is not HOST:PORT:ADDRESS (one address; an IPv6 one in brackets, e.g. [::1]).")
            }
            let address = parts[2].contains(":") && !parts[2].hasPrefix("[") ? "[\(parts[2])]" : String(parts[2])
            mapping["\(parts[0].lowercased()):\(port)"] = "\(address):\(port)"
        }
        return mapping
    }

    /// The link that connects mapped names to their address, or `nil` without `--resolve`.
    /// - Throws: As ``mapping()``.
    func plugin() throws(SwitchyardError) -> Plugin? {
        let mapping = try mapping()
        guard !mapping.isEmpty else { return nil }
        let interceptor = ClosureInterceptor(name: "resolve") { request, _, next in
            guard let authority = request.head.authority else { return try await next(request) }
            let scheme = request.head.scheme ?? "http"
            let key = Self.withPort(authority.lowercased(), scheme: scheme)
            guard let address = mapping[key] else { return try await next(request) }
            guard scheme == "http" else {
                throw SwitchyardError.invalidRequest(
                    "--resolve reaches \(key) over http:// only: over TLS the certificate names the host, not \(address).")
            }
            var mapped = request
            if mapped.head.headerFields[Self.host] == nil { mapped.head.headerFields[Self.host] = authority }
            mapped.head.authority = address
            return try await next(mapped)
        }
        // The innermost attempt link: every other link, the cookie jar's included, sees the name.
        return Plugin(name: "resolve", position: .attempt, layer: .nextToTransport, interceptors: [interceptor])
    }

    /// `authority` with its scheme's default port when it names none.
    private static func withPort(_ authority: String, scheme: String) -> String {
        let hostEnd = authority.lastIndex(of: "]") ?? authority.startIndex
        guard !authority[hostEnd...].contains(":") else { return authority }
        return authority + (scheme == "https" ? ":443" : ":80")
    }

    /// `Host`.
    private static let host = HTTPField.Name("Host")!
}
