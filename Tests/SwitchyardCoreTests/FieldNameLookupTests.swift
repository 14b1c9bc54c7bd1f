import HTTPTypes
import SwitchyardCore
import Testing

/// `HTTPField.Name.matches(_:)` and `HTTPFields.containsField(named:)`: the look-ups the hot path
/// uses instead of `==` and the `[name]` subscript, with the same answers.
struct FieldNameLookupTests {
    @Test func namesMatchAsEqualityDoes() throws {
        let names: [HTTPField.Name] = [
            .contentLength, .contentEncoding, .contentType, .userAgent, .acceptEncoding,
            try #require(HTTPField.Name("CONTENT-LENGTH")), try #require(HTTPField.Name("Content-Lengtx")),
            try #require(HTTPField.Name("X-Content-Length"))
        ]
        for name in names {
            for other in names {
                #expect(name.matches(other) == (name == other), "\(name) against \(other)")
            }
        }
    }

    @Test func containsAFieldWhateverItsCaseAndPosition() throws {
        var fields: HTTPFields = [.server: "nginx", .contentType: "text/plain"]
        fields.append(HTTPField(name: try #require(HTTPField.Name("content-ENCODING")), value: "gzip"))
        #expect(fields.containsField(named: .contentEncoding))
        #expect(fields.containsField(named: .server))
        #expect(!fields.containsField(named: .contentLength))
        #expect(!HTTPFields().containsField(named: .contentLength))
    }
}
