import Foundation
public import HTTPTypes
public import SwitchyardCore

// MARK: - Bodies

extension RecordedBody {
    /// Stores `bytes` as UTF-8 text when they are valid UTF-8, as base64 otherwise.
    /// - Parameters:
    ///   - bytes: The body bytes.
    ///   - complete: Whether the body was read to its end.
    public init(bytes: some Collection<UInt8>, complete: Bool = true) {
        let array = Array(bytes)
        if let text = String(validating: array, as: UTF8.self) {
            self.init(encoding: .utf8, content: text, byteCount: array.count, complete: complete)
        } else {
            self.init(
                encoding: .base64, content: Data(array).base64EncodedString(), byteCount: array.count,
                complete: complete)
        }
    }

    /// The body's bytes, decoded from text or base64.
    /// - Returns: The bytes.
    /// - Throws: `SwitchyardError.Kind.decoding` when base64 content is malformed.
    public func decodedBytes() throws(SwitchyardError) -> [UInt8] {
        switch encoding {
        case .utf8:
            return Array(content.utf8)
        case .base64:
            guard let data = Data(base64Encoded: content) else {
                throw SwitchyardError(
                    .decoding,
                    "A recorded body says it is base64 but is not valid base64;"
                        + " re-record the exchange or fix the file by hand.")
            }
            return Array(data)
        }
    }
}

// MARK: - Header fields

extension RecordedHeader {
    /// The value written in place of a redacted header value.
    public static let redactedValue = "<redacted>"

    /// Records `fields` in order, replacing the values of the `redacted` names with ``redactedValue``.
    /// - Parameters:
    ///   - fields: The header fields.
    ///   - redacted: The names whose values must never be written.
    /// - Returns: The recorded fields.
    public static func fields(_ fields: HTTPFields, redacting redacted: Set<HTTPField.Name>) -> [RecordedHeader] {
        fields.map { field in
            RecordedHeader(name: field.name.rawName, value: redacted.contains(field.name) ? redactedValue : field.value)
        }
    }

    /// Rebuilds header fields, in order, from recorded ones; fields with invalid names are skipped.
    /// - Parameter recorded: The recorded fields.
    /// - Returns: The header fields.
    public static func httpFields(_ recorded: [RecordedHeader]) -> HTTPFields {
        var fields = HTTPFields()
        for header in recorded {
            guard let name = HTTPField.Name(header.name) else { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        return fields
    }
}

// MARK: - Heads

extension RecordedRequest {
    /// Records a request head, redacting the `redacted` header values and the path's credential
    /// query values.
    /// - Parameters:
    ///   - head: The request head.
    ///   - body: The body, if any.
    ///   - redacted: The header names whose values must never be written.
    ///   - queryRedaction: The query parameters whose values must never be written; by default
    ///     `Redaction.defaultQueryParameters`.
    public init(
        _ head: HTTPRequest, body: RecordedBody?, redacting redacted: Set<HTTPField.Name>,
        redactingQuery queryRedaction: QueryRedaction = .standard
    ) {
        self.init(
            method: head.method.rawValue,
            scheme: head.scheme,
            authority: head.authority,
            path: queryRedaction.redact(head.path ?? "/"),
            headers: RecordedHeader.fields(head.headerFields, redacting: redacted),
            body: body
        )
    }

    /// `METHOD path`, e.g. `GET /users/42`: the key a replay matches on.
    public var target: String { "\(method) \(path)" }
}

extension RecordedResponse {
    /// Records a response head, redacting the `redacted` header values.
    /// - Parameters:
    ///   - head: The response head.
    ///   - body: The body, if any.
    ///   - redacted: The header names whose values must never be written.
    public init(_ head: HTTPResponse, body: RecordedBody?, redacting redacted: Set<HTTPField.Name>) {
        self.init(
            status: head.status.code,
            reason: head.status.reasonPhrase,
            headers: RecordedHeader.fields(head.headerFields, redacting: redacted),
            body: body
        )
    }

    /// The response head: status, reason phrase and header fields in order.
    /// - Returns: The head.
    /// - Throws: `SwitchyardError.Kind.decoding` when the status is not a three-digit code.
    public func makeHead() throws(SwitchyardError) -> HTTPResponse {
        guard (100...999).contains(status) else {
            throw SwitchyardError(.decoding, "A recorded response has status \(status); a status has three digits.")
        }
        return HTTPResponse(
            status: HTTPResponse.Status(code: status, reasonPhrase: reason),
            headerFields: RecordedHeader.httpFields(headers))
    }
}

// MARK: - Errors

extension RecordedError {
    /// Records an error's kind and message.
    /// - Parameter error: The error; non-Switchyard errors are recorded as they would be wrapped.
    public init(_ error: any Error) {
        let wrapped = SwitchyardError.wrapping(error)
        self.init(kind: wrapped.kind.rawValue, message: wrapped.message)
    }

    /// The error to replay: the same kind (`SwitchyardError.Kind.transport` if the kind is unknown) and message.
    public var switchyardError: SwitchyardError {
        SwitchyardError(SwitchyardError.Kind(rawValue: kind), message)
    }
}
