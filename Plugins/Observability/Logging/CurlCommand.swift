import HTTPTypes
public import SwitchyardCore

extension Request {
    /// A copy-pasteable `curl` command for this request, with `redaction`'s secrets masked: e.g.
    /// `curl -X 'POST' 'https://api.example.com/orders' -H 'Authorization: <redacted>' --data-binary '{"id":1}'`.
    ///
    /// A body in memory of at most `bodyPreviewBytes` UTF-8 bytes is included; a streamed, binary or
    /// larger one is referred to as `@body.bin` with a comment. A URL's user information is never
    /// shown (it is sent as `Authorization`).
    ///
    /// ```swift
    /// var redaction = Redaction.standard
    /// redaction.headers.insert("x-api-key")
    /// print(request.curlCommand(redacting: redaction))
    /// ```
    /// - Parameters:
    ///   - redaction: What to hide (default `Redaction.standard`).
    ///   - bodyPreviewBytes: The largest body shown inline (default 64 KiB).
    /// - Returns: The command.
    public func curlCommand(redacting redaction: Redaction = .standard, bodyPreviewBytes: Int = 64 * 1024) -> String {
        Redactor(redaction: redaction, request: head).curlCommand(for: self, bodyPreviewBytes: bodyPreviewBytes)
    }
}

extension Redactor {
    /// A copy-pasteable `curl` command for `request` with this exchange's secrets masked (the trace
    /// line of the logging plugin).
    /// - Parameters:
    ///   - request: The request.
    ///   - bodyPreviewBytes: The largest in-memory UTF-8 body shown inline.
    /// - Returns: The command.
    public func curlCommand(for request: Request, bodyPreviewBytes: Int) -> String {
        var parts = ["curl"]
        if request.head.method != .get { parts += ["-X", Self.shellQuoted(request.head.method.rawValue)] }
        parts.append(Self.shellQuoted(url(of: request.head)))
        for field in request.head.headerFields {
            parts += ["-H", Self.shellQuoted("\(field.name.rawName): \(value(of: field))")]
        }
        if let body = request.body {
            if let bytes = body.bufferedBytes, bytes.count <= bodyPreviewBytes, let text = String(validating: bytes, as: UTF8.self) {
                parts += ["--data-binary", Self.shellQuoted(masking(text))]
            } else {
                parts += ["--data-binary", "@body.bin", "# body not shown: streamed, binary or over the preview size"]
            }
        }
        return parts.joined(separator: " ")
    }

    /// POSIX shell single quoting: `it's` → `'it'\''s'`.
    private static func shellQuoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
