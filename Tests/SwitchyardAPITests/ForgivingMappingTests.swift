import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Lenient scalars and skipped list elements, with what they did recorded.
@Suite(.timeLimit(.minutes(2)))
struct ForgivingMappingTests {
    struct Listing: JSONMapped, Sendable, Equatable {
        var page = 0
        var id = ""
        var price = 0.0
        var isFeatured = false
        var note: String?
        var items: [Item] = []

        static let jsonMapping = JSONMapping<Listing>(
            lenientScalars: true,
            .field(\.page, "meta.page"),
            .field(\.id, "meta.id"),
            .field(\.price, "meta.price"),
            .field(\.isFeatured, "meta.featured"),
            .field(\.note, "meta.note"),
            .field(\.items, "items", skippingInvalidElements: true))
    }

    struct Strict: JSONMapped, Sendable {
        var page = 0
        var id = ""
        static let jsonMapping = JSONMapping<Strict>(.field(\.page, "page"), .field(\.id, "id").lenient())
    }

    private static let listing = #"""
        {"meta": {"page": "3", "id": 1042, "price": "12.50", "featured": "true", "note": 7},
         "items": [{"id": "a", "title": "A"}, {"id": null, "title": "B"}, 42, {"id": "d", "title": "D"}]}
        """#

    @Test(arguments: TransportKind.allCases)
    func scalarsAreConvertedAndABadItemIsSkippedAndBothAreReported(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let response = try await api.response(echoing(Listing.self, Self.listing))
            #expect(response.value.page == 3)
            #expect(response.value.id == "1042")
            #expect(response.value.price == 12.5)
            #expect(response.value.isFeatured)
            #expect(response.value.note == "7")
            #expect(response.value.items.map(\.id) == ["a", "d"])
            let report = response.info.decodingReport
            #expect(
                report.conversions.map(\.description) == [
                    #"meta.page: a string "3" taken as Int"#, "meta.id: the number 1042 taken as String",
                    #"meta.price: a string "12.50" taken as Double"#, #"meta.featured: a string "true" taken as Bool"#,
                    "meta.note: the number 7 taken as String"
                ])
            #expect(report.skippedElements.map(\.index) == [1, 2])
            #expect(report.skippedElements.first?.path == "items")
            #expect(report.skippedElements.first?.reason.contains("id") == true, "\(report.skippedElements)")
        }
    }

    @Test func theStrictDefaultStaysAndOnlyLenientFieldsConvert() throws {
        let data = Data(#"{"page": "3", "id": 7}"#.utf8)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Strict.self, from: data) }
        let (value, report) = try DecodingReport.collecting {
            try JSONDecoder().decode(Strict.self, from: Data(#"{"page": 3, "id": 7}"#.utf8))
        }
        #expect(value.id == "7")
        #expect(report.conversions.map(\.path) == ["id"])
        let unconvertible = Data(#"{"page": 3, "id": [1]}"#.utf8)
        #expect(throws: (any Error).self, "an array is not a scalar") { try JSONDecoder().decode(Strict.self, from: unconvertible) }
    }

    @Test(arguments: TransportKind.allCases)
    func anEndpointsListSkipsBadElementsWhenAskedAndFailsOtherwise(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let json = #"{"data": [{"id": "a", "title": "A"}, {"id": 5}, {"id": "c", "title": "C"}]}"#
            let body = RequestBody.bytes(Array(json.utf8), contentType: "application/json")
            let forgiving = Endpoint<[Item]>(.post, "/echo/body", at: "data", skippingInvalidElements: true).body(body)
            let response = try await api.response(forgiving)
            #expect(response.value.map(\.id) == ["a", "c"])
            #expect(response.info.decodingReport.skippedElements.map(\.description).first?.hasPrefix("data[1] skipped: ") == true)
            let strict = await api.call(Endpoint<[Item]>(.post, "/echo/body", at: "data").body(body)).result()
            #expect(strict.error?.kind == .decoding)
        }
    }

    @Test(arguments: TransportKind.allCases)
    func theRawBodyIsKeptBesideTheValueWhenAskedUpToItsBound(_ kind: TransportKind) async throws {
        try await withAPI(kind) { api, _ in
            let json = #"{"data": [{"id": "a", "title": "A"}]}"#
            let kept = try await api.response(echoing([Item].self, json, at: "data").keepingRawBody())
            #expect(kept.info.rawBody == Array(json.utf8))
            let bounded = try await api.response(echoing([Item].self, json, at: "data").keepingRawBody(upTo: 8))
            #expect(bounded.info.rawBody == Array(json.utf8.prefix(8)))
            let plain = try await api.response(echoing([Item].self, json, at: "data"))
            #expect(plain.info.rawBody == nil, "nothing kept unless asked")
        }
    }
}
