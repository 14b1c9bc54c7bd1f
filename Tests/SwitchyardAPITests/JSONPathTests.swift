import SwitchyardAPI
import Testing

@Suite struct JSONPathTests {
    @Test func parsesKeysIndicesWildcardsAndQuotedKeys() throws {
        let path = try JSONPath(parsing: #"data.list[3].id"#)
        #expect(path.segments == [.key("data"), .key("list"), .index(3), .key("id")])
        #expect(try JSONPath(parsing: "a[*].b").segments == [.key("a"), .each, .key("b")])
        #expect(try JSONPath(parsing: #"meta["x.y"]"#).segments == [.key("meta"), .key("x.y")])
        #expect(try JSONPath(parsing: "").segments.isEmpty)
        #expect(try JSONPath(parsing: "$.a").segments == [.key("a")])
        #expect(try JSONPath(parsing: "[0].a").segments == [.index(0), .key("a")])
    }

    @Test func writesItselfBack() throws {
        for text in ["data.list[3].id", "a[*].b", #"meta["x.y"]"#, "$"] {
            #expect(try JSONPath(parsing: text).description == text)
        }
    }

    @Test(arguments: ["a..b", "a.", "a[", "a[x]", "a]b", "a[1", #"a["x"#])
    func refusesMalformedPaths(_ text: String) {
        #expect(throws: JSONPathSyntaxError.self) { try JSONPath(parsing: text) }
    }

    @Test func findsValuesInUntypedJSON() {
        let document: JSONValue = .object([
            "data": .object([
                "list": .array([
                    .object(["id": .integer(1)]), .object(["id": .string("b")])
                ])
            ])
        ])
        #expect(document[path: "data.list[1].id"] == .string("b"))
        #expect(document[path: "data.list[*].id"] == .array([.integer(1), .string("b")]))
        #expect(document[path: "data.missing"] == nil)
        #expect(document[path: "data.list[5]"] == nil)
    }
}
