import HTTPTypes
import SwitchyardCore
import SwitchyardJSON
import SwitchyardPopUps
import SwitchyardStandardLinks

/// Builds the ``Request`` for one call: base URL + path with encoded parameters, query (the
/// endpoint's, then the scope rules'), header fields, encoded body, and options.
struct RequestBuilder<Value: Sendable> {
    let api: APIClient
    let endpoint: Endpoint<Value>
    let userInfo: [String: String]

    func build() throws(SwitchyardError) -> Request {
        var options = RequestOptions(timeout: endpoint.timeout, tags: endpoint.tags)
        if endpoint.isSilent { options.isSilent = true }
        options.retry = endpoint.retry
        options.recordsStagesAfterResponse = true
        options.userInfo = userInfo
        endpoint.adjustOptions?(&options)
        let (base, baseQuery) = Self.splitQuery(api.baseURL)
        var request = try Request(method: endpoint.method, url: base + (try expandedPath()), options: options)
        for field in endpoint.headers { request.head.headerFields.append(field) }
        if request.head.headerFields[.accept] == nil, !endpoint.accepts.types.contains("*/*") {
            request.head.headerFields[.accept] = endpoint.accepts.acceptHeader
        }
        let rules = api.parameters.filter { $0.scope.matches(request) }
        try addQuery(to: &request, baseQuery: baseQuery, rules: rules)
        var bodyFields: [String: JSONValue] = [:]
        for rule in rules {
            for (name, value) in rule.bodyFields where bodyFields[name] == nil { bodyFields[name] = .string(value.text) }
        }
        if case .multipart(let form) = endpoint.body {
            if request.head.headerFields[.contentType] == nil { request.head.headerFields[.contentType] = form.contentType }
            request.body = try form.body()
        } else if let (bytes, contentType) = try endpoint.body.encoded(encoder: endpoint.makeEncoder, extraFields: bodyFields) {
            if request.head.headerFields[.contentType] == nil { request.head.headerFields[.contentType] = contentType }
            request.body = HTTPBody(bytes)
        }
        return request
    }

    /// The path with `{name}` placeholders replaced by encoded values.
    private func expandedPath() throws(SwitchyardError) -> String {
        var path = endpoint.path.hasPrefix("/") ? endpoint.path : "/" + endpoint.path
        guard path.contains("{") else { return path }
        var result = ""
        while let open = path.firstIndex(of: "{") {
            guard let close = path[open...].firstIndex(of: "}") else {
                throw .invalidRequest("The path '\(endpoint.path)' has a '{' without '}'.")
            }
            let name = String(path[path.index(after: open)..<close])
            guard let value = endpoint.pathParameters[name] else {
                throw .invalidRequest(
                    "The path parameter '\(name)' of '\(endpoint.path)' has no value; set it with .parameter(\"\(name)\", …).")
            }
            result += path[..<open] + PercentEncoding.encode(value)
            path = String(path[path.index(after: close)...])
        }
        return result + path
    }

    private func addQuery(to request: inout Request, baseQuery: Substring?, rules: [ParameterRule]) throws(SwitchyardError) {
        var items = endpoint.query
        var names = Set(items.map(\.name))
        for rule in rules {
            for (name, value) in rule.query.sorted(by: { $0.key < $1.key }) where !names.contains(name) {
                items.append(QueryItem(name, value.text))
                names.insert(name)
            }
        }
        guard !items.isEmpty || baseQuery != nil else { return }
        let encoded = [baseQuery.map(String.init), items.isEmpty ? nil : PercentEncoding.query(items)]
            .compactMap { $0 }.joined(separator: "&")
        let path = request.head.path ?? "/"
        request.head.path = path + (path.contains("?") ? "&" : "?") + encoded
    }

    /// `https://h/v1?k=v` → (`https://h/v1`, `k=v`).
    private static func splitQuery(_ url: String) -> (String, Substring?) {
        guard let mark = url.firstIndex(of: "?") else { return (url, nil) }
        let query = url[url.index(after: mark)...]
        return (String(url[..<mark]), query.isEmpty ? nil : query)
    }
}
