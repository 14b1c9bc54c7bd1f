import SwitchyardJSON

/// `/upload/multipart`: answers with what ``MultipartParser`` found in the request body.
enum MultipartRoute {
    /// 200 with the parts as JSON, or 400 with `{"error":…}` for a malformed or non-multipart body.
    static func action(for request: IncomingRequest) -> RouteAction {
        guard var parser = request.multipart else {
            return .text(400, "{\"error\":\"expected a multipart/form-data body with a boundary\"}", contentType: "application/json")
        }
        parser.finish()
        if let failure = parser.failure {
            return .text(400, JSONValue.object(["error": .string(failure)]).description, contentType: "application/json")
        }
        return .text(200, json(parser.parts), contentType: "application/json")
    }

    /// `{"parts":[{"name","filename","content_type","bytes","sha256","value"}]}`.
    static func json(_ parts: [MultipartParser.Part]) -> String {
        func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        let document: JSONValue = .object([
            "parts": .array(
                parts.map { part in
                    .object([
                        "name": string(part.name),
                        "filename": string(part.filename),
                        "content_type": string(part.contentType),
                        "bytes": .integer(Int64(part.byteCount)),
                        "sha256": .string(part.sha256),
                        "value": string(part.value)
                    ])
                })
        ])
        return document.description
    }
}
