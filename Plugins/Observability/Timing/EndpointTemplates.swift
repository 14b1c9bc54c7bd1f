import HTTPTypes
import SwitchyardCore

/// Maps request paths to endpoint templates, so `/users/42` and `/users/7` count as `/users/{id}`.
struct EndpointTemplates: Sendable {
    private var templates: [[Substring]] = []

    /// Adds a template such as `/users/{id}/orders`; `{…}` matches one path segment.
    mutating func register(_ template: String) {
        let segments = Self.segments(of: template)
        if !templates.contains(segments) { templates.append(segments) }
    }

    /// The first registered template the path matches, or `nil` (the query is ignored).
    func registeredTemplate(for path: String) -> String? {
        let segments = Self.segments(of: path)
        return templates.first(where: { Self.matches($0, segments) }).map(Self.join)
    }

    /// The first registered template the path matches, else the path with numeric, UUID-like and
    /// long hexadecimal segments replaced by `{id}` (and the query dropped).
    func template(for path: String) -> String {
        let segments = Self.segments(of: path)
        if let match = templates.first(where: { Self.matches($0, segments) }) { return Self.join(match) }
        return Self.join(segments.map { Self.looksLikeIdentifier($0) ? "{id}" : $0 })
    }

    private static func segments(of path: String) -> [Substring] {
        let end = path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex
        return path[..<end].split(separator: "/")
    }

    private static func join(_ segments: [Substring]) -> String {
        "/" + segments.joined(separator: "/")
    }

    private static func matches(_ template: [Substring], _ segments: [Substring]) -> Bool {
        template.count == segments.count
            && zip(template, segments).allSatisfy { pattern, segment in
                (pattern.hasPrefix("{") && pattern.hasSuffix("}")) || pattern == segment
            }
    }

    private static func looksLikeIdentifier(_ segment: Substring) -> Bool {
        if segment.allSatisfy(\.isNumber) { return true }
        let hex = segment.filter { $0 != "-" }
        let isHex = hex.allSatisfy(\.isHexDigit)
        if isHex, hex.count == 32, segment.count == 36 { return true }  // UUID
        return isHex && hex.count >= 16 && hex.contains(where: \.isNumber)
    }
}
