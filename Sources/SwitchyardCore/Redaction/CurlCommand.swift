import HTTPTypes

/// A copy-pasteable `curl` command for a request, with secrets masked.
enum CurlCommand {
    /// E.g. `curl -X POST 'https://api.example.com/orders' -H 'Authorization: <redacted>' --data-binary '{"id":1}'`.
    static func render(_ request: Request, redactor: Redactor, bodyPreviewBytes: Int) -> String {
        var parts = ["curl"]
        if request.head.method != .get { parts += ["-X", quote(request.head.method.rawValue)] }
        parts.append(quote(redactor.url(of: request.head)))
        for field in request.head.headerFields {
            parts += ["-H", quote("\(field.name.rawName): \(redactor.value(of: field))")]
        }
        if let body = request.body {
            if let bytes = body.bufferedBytes, bytes.count <= bodyPreviewBytes, let text = String(validating: bytes, as: UTF8.self) {
                parts += ["--data-binary", quote(redactor.masking(text))]
            } else {
                parts += ["--data-binary", "@body.bin", "# body not shown: streamed, binary or over the preview size"]
            }
        }
        return parts.joined(separator: " ")
    }

    /// POSIX shell single quoting: `it's` → `'it'\''s'`.
    static func quote(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
