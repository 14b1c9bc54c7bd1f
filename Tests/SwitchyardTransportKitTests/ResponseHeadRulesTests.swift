import HTTPTypes
import Switchyard
import Testing

/// The head rules every transport applies before delivering a body byte.
@Suite struct ResponseHeadRulesTests {
    static func head(_ status: Int = 200, _ fields: HTTPFields = [:]) -> HTTPResponse {
        HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    @Test(arguments: ["5", "5, 5", " 5 "])
    func oneLengthIsAccepted(_ value: String) throws {
        #expect(try ResponseHeadRules.validate(Self.head(200, [.contentLength: value]), host: "h") == 5)
    }

    @Test(arguments: ["1, 2", "5,", "-1", "0x10", "99999999999999999999999", "", "1 2"])
    func ambiguousOrInvalidLengthsAreRefused(_ value: String) {
        let error = #expect(throws: SwitchyardError.self) {
            try ResponseHeadRules.validate(Self.head(200, [.contentLength: value]), host: "h")
        }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func twoDifferentFieldsAreRefusedWhicheverComesLast() {
        var fields = HTTPFields()
        fields.append(HTTPField(name: .contentLength, value: "10"))
        fields.append(HTTPField(name: .contentLength, value: "5"))
        let error = #expect(throws: SwitchyardError.self) { try ResponseHeadRules.validate(Self.head(200, fields), host: "h") }
        #expect(error?.kind == .protocolViolation)
    }

    @Test(arguments: [0, 99, 101, 600, 999])
    func statusesOutsideTheRulesAreRefused(_ code: Int) {
        let error = #expect(throws: SwitchyardError.self) { try ResponseHeadRules.validate(Self.head(code), host: "h") }
        #expect(error?.kind == .protocolViolation)
    }

    @Test func aHeadOverTheLimitIsRefusedNamingIt() {
        let fields: HTTPFields = [HTTPField.Name("X-Giant")!: String(repeating: "a", count: ResponseHeadRules.maxHeadBytes)]
        do {
            try ResponseHeadRules.validateSize(Self.head(200, fields), host: "h")
            Issue.record("accepted a head over the limit")
        } catch {
            #expect(error.kind == .protocolViolation)
            #expect(error.message.contains("80 KiB"))
        }
    }
}
