import SwitchyardJSON

extension JSONValue {
    /// Why `path` leads nowhere in this document, naming the path and the step that fails, e.g.
    /// `data.items: no such member "items" in data (an object with members "list", "total")`.
    ///
    /// - Parameter path: A path for which ``subscript(path:)`` found nothing.
    /// - Returns: The explanation; a generic one if the path does lead somewhere.
    func explainMissing(_ path: JSONPath) -> String {
        var current = self
        for (position, segment) in path.segments.enumerated() {
            let here = JSONPath(segments: Array(path.segments[..<position])).description
            switch (segment, current) {
            case (.key(let key), .object(let members)):
                guard let next = members[key] else {
                    let names = members.keys.sorted().prefix(8).map { JSONValue.string($0).description }.joined(separator: ", ")
                    let found = members.isEmpty ? "an empty object" : "an object with members \(names)"
                    return "\(path): no such member \(JSONValue.string(key).description) in \(here) (\(found))."
                }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else {
                    return "\(path): no element \(index) in \(here) (an array of \(elements.count))."
                }
                current = elements[index]
            case (.each, .array):
                return "\(path): an element of \(here) lacks the rest of the path."
            case (.key, _):
                return "\(path): \(here) is \(current.summary), not an object."
            case (.index, _), (.each, _):
                return "\(path): \(here) is \(current.summary), not an array."
            }
        }
        return "\(path): found \(current.summary)."
    }
}
