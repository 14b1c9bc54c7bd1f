public import SwitchyardJSON

extension JSONValue {
    /// The value at `path`, or `nil` where the path leads nowhere; a `[*]` step collects one
    /// result per element into an array.
    ///
    /// ```swift
    /// let page = try JSONDecoder().decode(JSONValue.self, from: body)
    /// let ids = page[path: "data.list[*].id"]     // .array([.integer(1), .integer(2), …])
    /// ```
    public subscript(path path: JSONPath) -> JSONValue? {
        value(at: path.segments[...])
    }

    private func value(at segments: ArraySlice<JSONPath.Segment>) -> JSONValue? {
        guard let first = segments.first else { return self }
        let rest = segments.dropFirst()
        switch (first, self) {
        case (.key(let key), .object(let members)): return members[key]?.value(at: rest)
        case (.index(let index), .array(let elements)):
            return elements.indices.contains(index) ? elements[index].value(at: rest) : nil
        case (.each, .array(let elements)):
            var results: [JSONValue] = []
            results.reserveCapacity(elements.count)
            for element in elements {
                guard let result = element.value(at: rest) else { return nil }
                results.append(result)
            }
            return .array(results)
        default: return nil
        }
    }
}
