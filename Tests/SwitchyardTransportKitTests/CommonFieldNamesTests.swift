import HTTPTypes
import SwitchyardTransportKit
import Testing

/// The byte-for-byte recognition of the field names servers send most.
@Suite struct CommonFieldNamesTests {
    @Test(arguments: [
        "Date", "Server", "Content-Type", "Content-Length", "Connection", "ETag", "Last-Modified", "Set-Cookie",
        "Transfer-Encoding", "Strict-Transport-Security", "Access-Control-Allow-Origin", "Keep-Alive",
        "X-Content-Type-Options", "Age", "Vary"
    ])
    func aCommonNameIsFoundInBothSpellings(_ spelling: String) throws {
        for form in [spelling, spelling.lowercased()] {
            let name = try #require(CommonFieldNames.name(form))
            #expect(name.rawName == form)
            #expect(name.canonicalName == spelling.lowercased())
            let fromBytes = Array(form.utf8).withUnsafeBytes { CommonFieldNames.name($0) }
            #expect(fromBytes?.rawName == form)
        }
    }

    @Test func anotherSpellingKeepsItsCaseThroughTheGeneralPath() throws {
        let name = try #require(CommonFieldNames.name("CONTENT-LENGTH"))
        #expect(name.rawName == "CONTENT-LENGTH")
        #expect(name == .contentLength)
        #expect(Array("CONTENT-LENGTH".utf8).withUnsafeBytes { CommonFieldNames.name($0) } == nil)
    }

    @Test func uncommonAndInvalidNames() throws {
        #expect(try #require(CommonFieldNames.name("X-Request-Id")).rawName == "X-Request-Id")
        #expect(CommonFieldNames.name("Bad Name") == nil)
        #expect(CommonFieldNames.name("") == nil)
        let long = String(repeating: "X", count: 200)
        #expect(Array(long.utf8).withUnsafeBytes { CommonFieldNames.name($0) } == nil)
        #expect(Array("Dat".utf8).withUnsafeBytes { CommonFieldNames.name($0) } == nil)
        #expect(Array("Datf".utf8).withUnsafeBytes { CommonFieldNames.name($0) } == nil)
    }
}
