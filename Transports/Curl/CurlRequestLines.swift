import CCurl
import HTTPTypes
import SwitchyardCore
import SwitchyardTransportKit

/// A request's URL and header list in the form libcurl takes them, built on the caller's task so
/// the event-loop thread only hands them over.
///
/// `@unchecked Sendable`: the list is built completely in `init` and never changed afterwards;
/// libcurl reads it only while the transfer holding these lines is in the multi handle, and a list
/// of this request's own is freed by its ``OwnedList``'s `deinit`, when no copy can reference it
/// any more. A request without header fields or body (the common `GET`), or with only the standard
/// `User-Agent`, uses one of four lists built once per process and never freed, which libcurl only
/// reads, from any number of transfers.
struct CurlRequestLines: @unchecked Sendable {
    /// The absolute URL.
    let url: CurlURL
    /// The header lines for `CURLOPT_HTTPHEADER`, including the blank `Name:` lines that stop
    /// libcurl from adding its own `Accept`, `Expect` and `Content-Type`.
    let headers: UnsafeMutablePointer<curl_slist>?
    /// Frees a list built for this request alone; `nil` for a shared list (no allocation then).
    private let owner: OwnedList?

    init(_ request: borrowing Request, decodesContentEncoding: Bool) {
        let head = request.head
        url = CurlURL(head)
        let fields = head.headerFields
        let decoders = request.options.contentDecoders
        if request.body == nil, head.method != .post, !decodesContentEncoding || decoders == .builtIn {
            let shared: SharedList? =
                if fields.isEmpty {
                    decodesContentEncoding ? Self.bareDecoding : Self.bare
                } else if fields.count == 1, fields.first == Self.standardUserAgent {
                    decodesContentEncoding ? Self.standardUserAgentDecoding : Self.standardUserAgentOnly
                } else {
                    nil
                }
            if let shared {
                headers = shared.pointer
                owner = nil
                return
            }
        }
        var list: UnsafeMutablePointer<curl_slist>?
        func add(_ line: String) { list = curl_slist_append(list, line) }
        for field in fields {
            switch field.name {
            case .contentLength, .transferEncoding:
                continue  // derived from the body by libcurl
            default:
                // libcurl's syntax for a header with an empty value is "Name;".
                add(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)")
            }
        }
        // Suppress headers libcurl would add on its own, so every transport sends the same request.
        if fields[.accept] == nil { add("Accept:") }
        if fields[.expect] == nil { add("Expect:") }
        if fields[.contentType] == nil, request.body != nil || head.method == .post { add("Content-Type:") }
        // Bodies are decoded in Swift (`Response.decodingContent`), not by libcurl, so the size
        // limit counts decoded bytes and an unfinished stream is caught; libcurl passes them raw.
        if decodesContentEncoding, fields[.acceptEncoding] == nil {
            add(decoders == .builtIn ? Self.acceptEncodingLine : "Accept-Encoding: \(decoders.acceptEncoding)")
        }
        headers = list
        owner = OwnedList(list)
    }

    /// The `Accept-Encoding` line added when the request has none, built once.
    private static let acceptEncodingLine = "Accept-Encoding: \(CurlTransport.Configuration.defaultAcceptEncoding)"

    /// A header list shared by every request of one shape; never freed.
    private struct SharedList: @unchecked Sendable {  // built once, then only read (by libcurl)
        let pointer: UnsafeMutablePointer<curl_slist>?
        init(_ lines: [String]) {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in lines { list = curl_slist_append(list, line) }
            pointer = list
        }
    }

    /// The lines of a request without header fields or body: no `Accept`, no `Expect`.
    private static let bare = SharedList(["Accept:", "Expect:"])
    /// The same, when bodies are decoded in Swift.
    private static let bareDecoding = SharedList(["Accept:", "Expect:", acceptEncodingLine])
    /// The one field of a request the standard configuration sent without fields of its own.
    private static let standardUserAgent = HTTPField(name: .userAgent, value: SwitchyardVersion.userAgent)
    /// The lines of such a request.
    private static let standardUserAgentOnly = SharedList(["User-Agent: \(SwitchyardVersion.userAgent)", "Accept:", "Expect:"])
    /// The same, when bodies are decoded in Swift.
    private static let standardUserAgentDecoding = SharedList([
        "User-Agent: \(SwitchyardVersion.userAgent)", "Accept:", "Expect:", acceptEncodingLine
    ])

    /// A header list built for one request, freed with the last copy of its lines.
    private final class OwnedList: @unchecked Sendable {  // only read after init, freed in deinit
        let pointer: UnsafeMutablePointer<curl_slist>?
        init(_ pointer: UnsafeMutablePointer<curl_slist>?) { self.pointer = pointer }
        deinit { curl_slist_free_all(pointer) }
    }
}
