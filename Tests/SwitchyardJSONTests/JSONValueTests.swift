import Foundation
import SwitchyardJSON
import Testing

/// The one JSON value type (from SwitchyardJSON, re-exported here): order, equality, text, decoding.
@Suite struct JSONValueTests {
    @Test func objectsKeepTheirOrderButCompareWithoutIt() {
        var members: JSONObject = ["b": .integer(1), "a": .bool(true)]
        members["c"] = .null
        members["b"] = .string("x")
        #expect(members.keys == ["b", "a", "c"])
        members["a"] = nil
        #expect(JSONValue.object(members).description == #"{"b":"x","c":null}"#)
        let reordered: JSONObject = ["c": .null, "b": .string("x")]
        #expect(members == reordered)
        #expect(Set([JSONValue.object(members), .object(reordered)]).count == 1)
        #expect(JSONObject([("k", .integer(1)), ("k", .integer(2))]).map(\.value) == [.integer(2)])
    }

    @Test func textIsCompactEscapedJSON() {
        let value: JSONValue = .array([
            .string("q\"b\\n\n\u{1}é"), .integer(-3), .number(0.5), .number(.infinity), .bool(false), .object([:])
        ])
        #expect(value.description == #"["q\"b\\n\n\u0001é",-3,0.5,null,false,{}]"#)
    }

    @Test func decodingSortsMembersAndRoundTrips() throws {
        let text = #"{"z":[1,2.5,"s",null],"a":{"y":true,"x":false}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value.description == #"{"a":{"x":false,"y":true},"z":[1,2.5,"s",null]}"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value)) == value)
    }
}
