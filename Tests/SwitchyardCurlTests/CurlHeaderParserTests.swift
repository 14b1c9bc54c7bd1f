import HTTPTypes
import Switchyard
import Testing

@testable import SwitchyardCurl

@Suite(.timeLimit(.minutes(2))) struct CurlHeaderParserTests {
    private func feed(_ lines: [String]) throws -> [CurlHeaderParser.Outcome] {
        var parser = CurlHeaderParser()
        return try lines.map { line in
            let bytes = Array(line.utf8)
            return try bytes.withUnsafeBytes { try parser.consume($0) }
        }
    }

    @Test func parsesStatusAndFieldsInOrder() throws {
        let outcomes = try feed(["HTTP/1.1 200 OK\r\n", "B: 2\r\n", "a:1\r\n", "B:  3 \r\n", "\r\n"])
        guard case .complete(let head) = outcomes.last else {
            Issue.record("no head")
            return
        }
        #expect(head.status.code == 200)
        #expect(head.status.reasonPhrase == "OK")
        #expect(head.headerFields.map(\.name.rawName) == ["B", "a", "B"])
        #expect(head.headerFields[values: HTTPField.Name("b")!] == ["2", "3"])
    }

    @Test func commonNamesKeepTheirSpellingAndMatchAnyCase() throws {
        let lines = ["Content-Length: 5", "content-type: text/plain", "CONTENT-ENCODING: gzip", "ETag: \"a\"", "Etag: \"b\"", "Server2: x"]
        let outcomes = try feed(["HTTP/1.1 200 OK\r\n"] + lines.map { $0 + "\r\n" } + ["\r\n"])
        guard case .complete(let head) = outcomes.last else {
            Issue.record("no head")
            return
        }
        #expect(head.headerFields.map(\.name.rawName) == ["Content-Length", "content-type", "CONTENT-ENCODING", "ETag", "Etag", "Server2"])
        #expect(head.headerFields[.contentLength] == "5")
        #expect(head.headerFields[.contentType] == "text/plain")
        #expect(head.headerFields[.contentEncoding] == "gzip")
        #expect(head.headerFields[values: .eTag] == ["\"a\"", "\"b\""])
        let error = #expect(throws: SwitchyardError.self) { try feed(["HTTP/1.1 200 OK\r\n", "Date: a\u{1}b\r\n"]) }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func valuesKeepTabsAndObsTextAndRefuseControlCharacters() throws {
        var parser = CurlHeaderParser()
        let status = Array("HTTP/1.1 200 OK\r\n".utf8)
        let latin1Line = Array("X-Latin1: caf".utf8) + [0xE9] + Array("\r\n".utf8)
        let lines = [status, Array("X-Tab: a\tb\r\n".utf8), latin1Line, Array("\r\n".utf8)]
        let outcomes = try lines.map { line in try line.withUnsafeBytes { try parser.consume($0) } }
        guard case .complete(let head) = outcomes.last else {
            Issue.record("no head")
            return
        }
        #expect(head.headerFields[HTTPField.Name("x-tab")!] == "a\tb")
        let latin1 = try #require(head.headerFields.first { $0.name.rawName == "X-Latin1" })
        latin1.withUnsafeBytesOfValue { #expect(Array($0) == Array("caf".utf8) + [0xE9]) }
        for control: UInt8 in [0x00, 0x01, 0x0B, 0x1F, 0x7F] {
            var refusing = CurlHeaderParser()
            let error = #expect(throws: SwitchyardError.self) {
                for line in [Array("HTTP/1.1 200 OK\r\n".utf8), Array("X: a".utf8) + [control] + Array("b\r\n".utf8)] {
                    _ = try line.withUnsafeBytes { try refusing.consume($0) }
                }
            }
            #expect(error?.kind == .protocolViolation, "byte \(control)")
        }
    }

    @Test func skipsInterimBlocksAndParsesHTTP2StatusLines() throws {
        let outcomes = try feed(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/2 204\r\n", "\r\n"])
        #expect(outcomes[1] == .interimEnded)
        guard case .complete(let head) = outcomes.last else {
            Issue.record("no head")
            return
        }
        #expect(head.status.code == 204)
    }

    @Test func foldsObsoleteContinuationLines() throws {
        let outcomes = try feed(["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "\t second\r\n", "\r\n"])
        guard case .complete(let head) = outcomes.last else {
            Issue.record("no head")
            return
        }
        #expect(head.headerFields[HTTPField.Name("x-long")!] == "first second")
    }

    @Test(arguments: [
        ["HTTP/1.1 2x0 OK\r\n"],
        ["HTTX/1.1 200 OK\r\n"],
        ["HTTP/1.1\r\n"],
        ["HTTP/1.1 099 Low\r\n"],
        ["HTTP/1.1 200 OK\r\n", "no colon here\r\n"],
        ["HTTP/1.1 200 OK\r\n", "Bad Name: x\r\n"],
        ["HTTP/1.1 200 OK\r\n", ": empty name\r\n"],
        ["HTTP/1.1 200 OK\r\n", " continuation first\r\n"]
    ])
    func malformedLinesAreProtocolViolations(lines: [String]) {
        do {
            _ = try feed(lines)
            Issue.record("accepted \(lines)")
        } catch {
            #expect((error as? SwitchyardError)?.kind == .protocolViolation)
        }
    }
}
