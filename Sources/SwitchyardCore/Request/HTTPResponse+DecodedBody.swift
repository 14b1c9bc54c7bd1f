public import HTTPTypes

extension HTTPResponse {
    /// Content codings every shipped transport decodes.
    public static let decodedContentCodings: Set<String> = ["gzip", "x-gzip", "deflate"]

    /// The head rewritten to describe the body a transport delivers after decoding it.
    ///
    /// When every coding the response's `Content-Encoding` lists is in `codings`, the body the
    /// caller reads is the decoded one, so `Content-Encoding` and `Content-Length` (which
    /// counts the encoded bytes) no longer describe it and are removed. Every transport applies
    /// this, so headers agree whichever backend decoded the body.
    ///
    /// ```swift
    /// let head = HTTPResponse(status: .ok, headerFields: [.contentEncoding: "gzip", .contentLength: "120"])
    /// head.describingDecodedBody().headerFields[.contentEncoding]  // nil
    /// ```
    /// - Parameter codings: The codings the transport decodes (lowercase).
    /// - Returns: The rewritten head, or the head unchanged if its body is not decoded.
    public func describingDecodedBody(codings: Set<String> = HTTPResponse.decodedContentCodings) -> HTTPResponse {
        let listed = headerFields[values: .contentEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingSpaces().lowercased() }.filter { $0 != "identity" && !$0.isEmpty }
        guard !listed.isEmpty, listed.allSatisfy({ codings.contains($0) }) else { return self }
        var head = self
        head.headerFields[.contentEncoding] = nil
        head.headerFields[.contentLength] = nil
        return head
    }
}
