extension RequestOptions {
    /// A request tag starting with this names the endpoint a call belongs to, for every link that
    /// groups calls by endpoint (timing statistics, metrics, spans): `template:getGreeting` (what the
    /// OpenAPI bridge adds for each operation ID) or `template:/users/{id}`.
    public static let endpointTemplateTagPrefix = "template:"

    /// The endpoint an ``endpointTemplateTagPrefix`` tag names, if any (no work when there are no tags).
    public var endpointTemplate: String? {
        guard !tags.isEmpty else { return nil }
        let prefix = Self.endpointTemplateTagPrefix
        for tag in tags where tag.hasPrefix(prefix) { return String(tag.dropFirst(prefix.count)) }
        return nil
    }
}
