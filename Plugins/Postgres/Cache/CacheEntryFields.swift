import HTTPTypes

/// Header fields as the PostgreSQL cache store keeps them in a text column: one `name:value` per
/// line (field values hold neither line breaks nor NUL, which HTTP forbids and `HTTPFields` refuses).
enum CacheEntryFields {
    static func encode(_ fields: HTTPFields) -> String {
        fields.map { $0.name.rawName + ":" + $0.value }.joined(separator: "\n")
    }

    /// The fields, or `nil` when the text is not what ``encode(_:)`` writes.
    static func decode(_ text: String) -> HTTPFields? {
        var fields = HTTPFields()
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else { return nil }
            fields.append(HTTPField(name: name, value: String(line[line.index(after: colon)...])))
        }
        return fields
    }
}
