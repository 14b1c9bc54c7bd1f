import HTTPTypes
public import SwitchyardCore

/// How the body of a failed response becomes an app's own error model, declared on an
/// ``Endpoint`` (``Endpoint/errorModel(_:)``) or for every call of an ``APIClient``
/// (``APIClient/errorModel``).
///
/// ```swift
/// struct ServiceError: Decodable, Sendable { var code: String; var message: String }
/// let api = try APIClient(client: client, baseURL: base, errorModel: .json(ServiceError.self, at: "error"))
/// // … catch let error as SwitchyardError: error.errorModel(as: ServiceError.self)?.message
/// ```
///
/// Without one, an `application/problem+json` body is decoded as ``ProblemDetails``. A body the
/// model cannot decode leaves the model absent; the error still carries the body
/// (`SwitchyardError.responseBody`).
public struct ErrorModel: Sendable {
    let decode: @Sendable (_ body: [UInt8]) -> (any Sendable)?

    /// A model decoded from any body by `decode` (`nil`: none).
    /// - Parameter decode: The decoding.
    public init(decode: @escaping @Sendable (_ body: [UInt8]) -> (any Sendable)?) {
        self.decode = decode
    }

    /// JSON at `path` decoded as `Model`.
    /// - Parameters:
    ///   - type: The model.
    ///   - path: Where it sits in the body (default: the whole body).
    ///   - decoding: The decoder settings.
    /// - Returns: The error model.
    public static func json<Model: Decodable & Sendable>(
        _ type: Model.Type, at path: JSONPath = JSONPath(segments: []), using decoding: JSONDecoding = .standard
    ) -> Self {
        Self { body in
            (try? decoding.decodeRoot(Model.self, from: body, plan: DecodingPlan(path: path, envelope: nil)))?.value
        }
    }

    /// RFC 9457 problem documents.
    public static let problemDetails = json(ProblemDetails.self)
}

/// The decoded error model of a failed call, kept as its error's underlying error.
struct DecodedErrorModel: Error, Sendable {
    let value: any Sendable
}

extension SwitchyardError {
    /// The server's RFC 9457 problem document, when the failed response's body was one
    /// (`application/problem+json`, or a declared ``ErrorModel/problemDetails``).
    public var problem: ProblemDetails? {
        if let model = errorModel(as: ProblemDetails.self) { return model }
        guard let body = responseBody, Self.isProblemDocument(response?.headerFields[.contentType]) else { return nil }
        return ErrorModel.problemDetails.decode(body.bytes) as? ProblemDetails
    }

    /// The declared error model decoded from the failed response's body.
    /// - Parameter type: The model's type.
    /// - Returns: The model, or `nil` when none was declared, decoded or of this type.
    public func errorModel<Model>(as type: Model.Type = Model.self) -> Model? {
        (underlyingError as? DecodedErrorModel)?.value as? Model
    }

    /// Decodes `model` (or, without one, a problem document) from a rejected status's kept body
    /// and keeps it as the underlying error.
    mutating func attachErrorModel(_ model: ErrorModel?) {
        guard kind == .httpStatus, underlyingError == nil, let body = responseBody, !body.bytes.isEmpty else { return }
        let model = model ?? (Self.isProblemDocument(response?.headerFields[.contentType]) ? .problemDetails : nil)
        if let value = model?.decode(body.bytes) { underlyingError = DecodedErrorModel(value: value) }
    }

    private static let problemDocument = MediaTypeSet(types: ["application/problem+json"], acceptsMissing: false)

    private static func isProblemDocument(_ contentType: String?) -> Bool {
        problemDocument.accepts(contentType)
    }
}
