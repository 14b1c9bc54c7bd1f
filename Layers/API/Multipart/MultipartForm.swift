public import SwitchyardCore
import SwitchyardTransfers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A `multipart/form-data` body (RFC 7578): text fields and files, sent as a stream.
///
/// ```swift
/// let form = MultipartForm(parts: [
///     .field("title", "Holiday"),
///     .fileAtPath("video", filename: "Ferien in Zürich.mp4", contentType: "video/mp4", path: "/tmp/movie.mp4"),
/// ])
/// let request = try Request(method: .post, url: url, body: try form.body())
/// request.head.headerFields[.contentType] = form.contentType
/// ```
///
/// Files given by path are read from disk while the body is sent, in constant memory; the body's
/// length is known (so it goes out with `Content-Length`) unless a part is a stream of unknown
/// length. Names and file names are sent as UTF-8 (RFC 7578 §5.1.1, what browsers send), with
/// `"`, CR and LF percent-encoded as `%22`, `%0D`, `%0A` (RFC 7578 §4.2, the WHATWG rule).
public struct MultipartForm: Sendable {
    /// One part.
    public enum Part: Sendable {
        /// A text field.
        case field(String, String)
        /// A file held in memory: field name, file name, content type and bytes.
        case file(String, filename: String, contentType: String, bytes: [UInt8])
        /// A file streamed from disk when the form is sent: field name, file name, content type and path.
        case fileAtPath(String, filename: String, contentType: String, path: String)
        /// A file streamed from a body (e.g. an async byte stream): field name, file name,
        /// content type and body. A single-use body makes the whole form single-use.
        case stream(String, filename: String, contentType: String, body: HTTPBody)
    }

    /// The parts, in order.
    public var parts: [Part]
    /// The boundary between parts (96 random bits by default).
    public var boundary: String

    /// Creates a form.
    /// - Parameters:
    ///   - parts: The parts.
    ///   - boundary: The boundary; random when `nil`.
    public init(parts: [Part], boundary: String? = nil) {
        self.parts = parts
        self.boundary = boundary ?? "switchyard-" + (0..<24).map { _ in String("0123456789abcdef".randomElement() ?? "0") }.joined()
    }

    /// The `Content-Type` to send with the form: `multipart/form-data; boundary=…`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The form as a streamed body: part headers from memory, files read from disk as they are sent.
    /// - Returns: The body, replayable unless a ``Part/stream(_:filename:contentType:body:)`` part is single-use.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when a file cannot be read.
    public func body() throws(SwitchyardError) -> HTTPBody {
        var pieces: [HTTPBody] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { pieces.append(HTTPBody(text)) }
            text = []
        }
        for part in parts {
            text += header(of: part)
            switch part {
            case .field(_, let value): text += Array(value.utf8)
            case .file(_, _, _, let bytes): text += bytes
            case .fileAtPath(_, _, _, let path):
                flush()
                pieces.append(try HTTPBody.file(atPath: path))
            case .stream(_, _, _, let body):
                flush()
                pieces.append(body)
            }
            text += [13, 10]
        }
        text += Array("--\(boundary)--\r\n".utf8)
        flush()
        return ConcatenatedBody.body(of: pieces)
    }

    /// The whole body in memory (small forms; reads `fileAtPath` files, refuses `stream` parts).
    func encoded() throws(SwitchyardError) -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            body += header(of: part)
            switch part {
            case .field(_, let value): body += Array(value.utf8)
            case .file(_, _, _, let bytes): body += bytes
            case .fileAtPath(_, _, _, let path):
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw .invalidRequest("Cannot read '\(path)' for the multipart form.")
                }
                body += Array(data)
            case .stream:
                throw .invalidRequest("A multipart form with a streamed part cannot be encoded in memory; use body().")
            }
            body += [13, 10]
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    /// The boundary line and headers of `part`, up to and including the blank line.
    private func header(of part: Part) -> [UInt8] {
        var lines = "--\(boundary)\r\n"
        switch part {
        case .field(let name, _):
            lines += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"\r\n"
        case .file(let name, let filename, let contentType, _),
            .fileAtPath(let name, let filename, let contentType, _),
            .stream(let name, let filename, let contentType, _):
            lines += "Content-Disposition: form-data; name=\"\(Self.quoted(name))\"; filename=\"\(Self.quoted(filename))\"\r\n"
            lines += "Content-Type: \(Self.headerSafe(contentType))\r\n"
        }
        return Array((lines + "\r\n").utf8)
    }

    /// A name safe inside a quoted header parameter: quotes, CR and LF percent-encoded (RFC 7578 §4.2).
    static func quoted(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A header value with CR and LF removed, so a content type cannot add header lines.
    private static func headerSafe(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" })
    }
}
