public import HTTPTypes
public import SwitchyardCore

/// The rules every transport applies to a response head before it hands out a single body byte,
/// so a hostile or broken server gets the same typed error whichever backend talks to it.
///
/// - The status code is 100–599; a final `101 Switching Protocols` is refused, because no request
///   sent through Switchyard can take over the connection.
/// - `Content-Length` is unambiguous (RFC 9112 §6.3): every value, in every field and list item,
///   is the same decimal number that fits in 63 bits. Anything else is how request smuggling
///   starts, so it is a ``SwitchyardError/Kind/protocolViolation``, never "the last one wins".
/// - The head is at most ``maxHeadBytes`` and at most ``maxInterimResponses`` interim (1xx)
///   responses precede it. Each transport enforces these where its stack reads the head (curl's
///   framer, SwiftNIO's parser, ``validateSize(_:host:)`` for URLSession), not again afterwards.
public enum ResponseHeadRules {
    /// The largest response head accepted, in bytes (names, values and line overhead): 80 KiB,
    /// SwiftNIO's parser limit, so every transport refuses at the same size.
    public static let maxHeadBytes = 80 * 1024
    /// The most interim (1xx) responses accepted before the final one.
    public static let maxInterimResponses = 32

    /// Checks `head` against the rules.
    /// - Parameters:
    ///   - head: The final response head as received.
    ///   - host: The server's name for messages.
    /// - Returns: The declared body length, if the head has a `Content-Length`.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` naming the rule that was broken.
    @discardableResult
    public static func validate(_ head: HTTPResponse, host: String) throws(SwitchyardError) -> Int64? {
        let code = head.status.code
        guard code >= 100, code <= 599 else {
            throw TransportFailure.statusOutOfRange(host: host, code: code)
        }
        guard code != 101 else {
            throw .protocolViolation(
                "\(host) answered 101 Switching Protocols, but the request asked for no protocol"
                    + " upgrade and Switchyard does not hand connections over; the response was refused.")
        }
        return try declaredLength(head.headerFields, host: host)
    }

    /// Checks the size of a head that arrived already parsed, from a stack that does not stop at
    /// ``maxHeadBytes`` while reading (URLSession). curl's framer and SwiftNIO's parser refuse a
    /// larger head as it arrives, so their transports do not pay for this walk.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for a head over ``maxHeadBytes``.
    public static func validateSize(_ head: HTTPResponse, host: String) throws(SwitchyardError) {
        var size = 0
        for field in head.headerFields { size += field.name.rawName.utf8.count + field.value.utf8.count + 4 }
        if size > maxHeadBytes { throw headTooLarge(host: host) }
    }

    /// The error for a head over ``maxHeadBytes``.
    public static func headTooLarge(host: String) -> SwitchyardError {
        .protocolViolation(
            "\(host) sent a response head larger than \(maxHeadBytes / 1024) KiB, the limit for"
                + " every transport; the response was refused.")
    }

    /// The error for more than ``maxInterimResponses`` interim responses.
    public static func tooManyInterimResponses(host: String) -> SwitchyardError {
        .protocolViolation(
            "\(host) sent more than \(maxInterimResponses) interim (1xx) responses before a final one;"
                + " the exchange was abandoned.")
    }

    /// The single `Content-Length` of `fields`, `nil` if there is none.
    /// - Throws: ``SwitchyardError/Kind/protocolViolation`` for differing, malformed or oversized values.
    public static func declaredLength(_ fields: HTTPFields, host: String) throws(SwitchyardError) -> Int64? {
        var length: Int64?
        for field in fields where field.name.matches(.contentLength) {
            // Parsed byte by byte: no array or substring per response on the hot path.
            var value: Int64 = 0
            var digits = 0
            var spacesAfterDigits = false
            func item() throws(SwitchyardError) {
                guard digits > 0 else { throw invalidLength(field.value, host: host) }
                if let length, length != value {
                    throw .protocolViolation(
                        "\(host) sent conflicting Content-Length values (\(length) and \(value));"
                            + " the body's end is ambiguous (a request-smuggling pattern), so it was refused.")
                }
                length = value
                value = 0
                digits = 0
                spacesAfterDigits = false
            }
            for byte in field.value.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard !spacesAfterDigits else { throw invalidLength(field.value, host: host) }
                    let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                    guard !overflow1, !overflow2 else { throw invalidLength(field.value, host: host) }
                    value = sum
                    digits += 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"):
                    if digits > 0 { spacesAfterDigits = true }
                case UInt8(ascii: ","):
                    try item()
                default:
                    throw invalidLength(field.value, host: host)
                }
            }
            try item()
        }
        return length
    }

    private static func invalidLength(_ value: String, host: String) -> SwitchyardError {
        .protocolViolation(
            "\(host) sent an invalid Content-Length '\(value.prefix(40))': not a decimal number that"
                + " fits in 63 bits. The body's end cannot be known, so it was refused.")
    }
}
