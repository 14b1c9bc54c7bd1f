import AsyncHTTPClient
import HTTPTypes
import NIOHTTP1
import SwitchyardCore
import SwitchyardTransportKit

/// Turns an AsyncHTTPClient response head into a swift-http-types `HTTPResponse`.
enum AsyncHTTPClientResponseMapping {
    /// The head with status, reason phrase and header fields in the order and case received.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for a status outside 0…999 or an illegal field name.
    static func head(of response: HTTPClientResponse, host: String) throws(SwitchyardError) -> HTTPResponse {
        let code = Int(response.status.code)
        guard (0...999).contains(code) else {
            throw .protocolViolation("\(host) sent the status code \(code), which is not a three-digit HTTP status.")
        }
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let fieldName = CommonFieldNames.name(name) else {
                throw .protocolViolation("\(host) sent a header named '\(name)', which is not a valid field name.")
            }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let status = HTTPResponse.Status(code: code, reasonPhrase: response.status.reasonPhrase)
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// The body's length as the head declares it; unknown when the body is content-encoded (it is
    /// decoded on the way in, so the declared length is not the length delivered).
    /// - Parameter validated: The length ``ResponseHeadRules/validate(_:host:)`` read from the head.
    static func bodyLength(of head: HTTPResponse, validated: Int64?) -> HTTPBody.Length {
        guard let validated, !head.headerFields.containsField(named: .contentEncoding) else { return .unknown }
        return .known(validated)
    }
}
