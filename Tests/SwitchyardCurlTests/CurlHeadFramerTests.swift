import HTTPTypes
import Switchyard
import Testing

@testable import SwitchyardCurl

@Suite(.timeLimit(.minutes(2))) struct CurlHeadFramerTests {
    /// Feeds lines one by one, as libcurl's header callback does; returns each line's result.
    private func frame(_ lines: [String]) -> [[UInt8]?] {
        var framer = CurlHeadFramer()
        return lines.map { line in Array(line.utf8).withUnsafeBytes { try? framer.consume($0) } }
    }

    @Test func dropsInterimBlocksAndReturnsTheFinalOneWhole() throws {
        let results = frame([
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 103 Early Hints\r\n", "Link: </a>\r\n", "\r\n",
            "HTTP/1.1 201 Created\r\n", "Location: /x\r\n", "\r\n"
        ])
        #expect(results.dropLast().allSatisfy { $0 == nil })
        let block = try #require(results.last ?? nil)
        #expect(String(decoding: block, as: UTF8.self) == "HTTP/1.1 201 Created\r\nLocation: /x\r\n\r\n")
        let head = try CurlHeaderParser.parseHead(block)
        #expect(head.status.code == 201)
        #expect(head.headerFields[.location] == "/x")
    }

    @Test func aMalformedStatusLineIsFramedAndThenRejectedByTheParser() throws {
        let block = try #require(frame(["HTCPCP/1.0 418\r\n", "\r\n"]).last ?? nil)
        let error = #expect(throws: SwitchyardError.self) { try CurlHeaderParser.parseHead(block) }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func aBlockWithoutItsEmptyLineIsAProtocolViolation() {
        let error = #expect(throws: SwitchyardError.self) { try CurlHeaderParser.parseHead(Array("HTTP/1.1 200 OK\r\nA: b\r\n".utf8)) }
        #expect(error?.kind == .protocolViolation)
    }

    /// Bare LF line endings are refused, as the other transports' parsers do (issue 10).
    @Test func bareLineFeedsAreAProtocolViolation() throws {
        let block = try #require(frame(["HTTP/1.0 200 OK\n", "A: 1\n", "\n"]).last ?? nil)
        let error = #expect(throws: SwitchyardError.self) { try CurlHeaderParser.parseHead(block) }
        #expect(error?.kind == .protocolViolation)
    }
}
