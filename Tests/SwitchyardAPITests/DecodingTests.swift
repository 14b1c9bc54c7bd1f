import Foundation
import Switchyard
import SwitchyardAPI
import Testing

@Suite struct DecodingTests {
    let decoding = JSONDecoding.standard

    @Test func decodesAModelAtAKeyPath() throws {
        let body = Array(#"{"code": 0, "data": {"list": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]}}"#.utf8)
        let items = try decoding.decode([Item].self, from: body, at: "data.list")
        #expect(items == [Item(id: "a", title: "A"), Item(id: "b", title: "B")])
        #expect(try decoding.decode(Item.self, from: body, at: "data.list[1]") == Item(id: "b", title: "B"))
        #expect(try decoding.decode([String].self, from: body, at: "data.list[*].id") == ["a", "b"])
    }

    @Test func nullAtTheKeyPathIsNoValue() throws {
        let body = Array(#"{"data": null}"#.utf8)
        #expect(try decoding.decode([Item].self, from: body, at: "data") == nil)
    }

    @Test func aWrongTypeNamesThePathAndWhatWasFound() {
        let body = Array(
            #"{"data": {"list": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}, {"id": "c", "title": "C"}, {"id": null, "title": "D"}]}}"#
                .utf8)
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode([Item].self, from: body, at: "data.list") }
        #expect(error?.kind == .decoding)
        #expect(error?.message == "data.list[3].id: expected a string, found null")
    }

    @Test func aMissingKeyOnThePathIsADecodingErrorNamingIt() {
        let body = Array(#"{"data": {"items": []}}"#.utf8)
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode([Item].self, from: body, at: "data.list") }
        #expect(error?.kind == .decoding)
        #expect(error?.message.hasPrefix("data.list: missing") == true)
        #expect(error?.message.contains("items") == true)
    }

    @Test func invalidJSONIsADecodingError() {
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode(Item.self, from: Array("<html>".utf8)) }
        #expect(error?.kind == .decoding)
        #expect(error?.message.hasPrefix("$: the body is not valid JSON") == true)
    }

    @Test func mapsPropertiesFromJSONPathsIncludingNestedArraysAndDefaults() throws {
        let book = try #require(try decoding.decode(Book.self, from: Array(bookJSON.utf8)))
        #expect(
            book
                == Book(
                    title: "Dune", authors: ["Frank Herbert", "Brian Herbert"], price: 9.5, subtitle: nil,
                    pages: 412, tags: [Tag(label: "sf"), Tag(label: "classic")]))
    }

    @Test func absentOptionalAndDefaultedFieldsKeepTheirDefaults() throws {
        let json = #"{"info": {"book": {"title": "T", "authors": []}}, "price": {"amount": 1}}"#
        let book = try #require(try decoding.decode(Book.self, from: Array(json.utf8)))
        #expect(book.subtitle == nil)
        #expect(book.pages == -1)
        #expect(book.tags.isEmpty)
        #expect(book.price == 1)
    }

    @Test func aWrongTypeInAMappedModelNamesThePathTheFieldAndTheValue() {
        let json = #"{"info": {"book": {"title": "T", "authors": []}}, "price": {"amount": "12"}}"#
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode(Book.self, from: Array(json.utf8)) }
        #expect(error?.kind == .decoding)
        #expect(error?.message.hasPrefix(#"price.amount: expected a number, found a string "12""#) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("price") == true)
    }

    @Test func aRequiredMappedFieldThatIsMissingNamesItsPath() {
        let json = #"{"info": {}, "price": {"amount": 1}}"#
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode(Book.self, from: Array(json.utf8)) }
        #expect(error?.message.hasPrefix("info.book: missing") == true, "\(error?.message ?? "")")
    }

    @Test func mappedModelsDecodeAsListsAtAKeyPath() throws {
        let json = "{\"data\": [\(bookJSON), \(bookJSON)]}"
        let books = try #require(try decoding.decode([Book].self, from: Array(json.utf8), at: "data"))
        #expect(books.count == 2)
        #expect(books[1].authors == ["Frank Herbert", "Brian Herbert"])
    }

    @Test func aWrongTypeDeepInAMappedListNamesTheIndex() {
        let broken = bookJSON.replacingOccurrences(of: #"{"name": "Brian Herbert"}"#, with: #"{"name": 7}"#)
        let json = "{\"data\": [\(bookJSON), \(broken)]}"
        let error = #expect(throws: SwitchyardError.self) { try decoding.decode([Book].self, from: Array(json.utf8), at: "data") }
        #expect(
            error?.message.hasPrefix("data[1].info.book.authors[1].name: expected a string, found the number 7") == true,
            "\(error?.message ?? "")")
    }
}
