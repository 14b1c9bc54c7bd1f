import HTTPTypes
import Switchyard

/// The response head as `-i` and `-I` print it, in curl's form: the status line, the fields as they
/// arrived, and a blank line, each ending in CR LF.
///
/// ```
/// HTTP/1.1 200 OK
/// Content-Type: text/plain
/// Content-Length: 13
///
/// ```
enum IncludedHead {
    /// The head's text.
    /// - Parameters:
    ///   - head: The response head.
    ///   - version: The protocol version the transport reported (`nil`: unknown, printed as 1.1).
    /// - Returns: The status line, the fields and the blank line.
    static func text(_ head: HTTPResponse, version: HTTPProtocolVersion?) -> String {
        let version = version ?? .http1_1
        // curl prints HTTP/2 without a reason phrase (there is none on the wire), keeping the space.
        // URLSession does not report the reason phrase: its line ends after the code, as for a server without one.
        let reason = version.major >= 2 ? "" : head.status.reasonPhrase
        var text = "HTTP/\(version) \(head.status.code) \(reason)\r\n"
        for field in head.headerFields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return text + "\r\n"
    }
}
