/// `/upload/multipart`: answers with what ``MultipartParser`` found in the request body.
enum MultipartRoute {
    /// 200 with the parts as JSON, or 400 with `{"error":…}` for a malformed or non-multipart body.
    static func action(for request: IncomingRequest) -> RouteAction {
        guard var parser = request.multipart else {
            return .text(400, "{\"error\":\"expected a multipart/form-data body with a boundary\"}", contentType: "application/json")
        }
        parser.finish()
        if let failure = parser.failure {
            var out = "{\"error\":"
            EchoResponse.appendString(failure, to: &out)
            return .text(400, out + "}", contentType: "application/json")
        }
        return .text(200, json(parser.parts), contentType: "application/json")
    }

    /// `{"parts":[{"name","filename","content_type","bytes","sha256","value"}]}`.
    static func json(_ parts: [MultipartParser.Part]) -> String {
        func string(_ value: String?, _ out: inout String) {
            if let value { EchoResponse.appendString(value, to: &out) } else { out += "null" }
        }
        var out = "{\"parts\":["
        for (index, part) in parts.enumerated() {
            if index > 0 { out += "," }
            out += "{\"name\":"
            string(part.name, &out)
            out += ",\"filename\":"
            string(part.filename, &out)
            out += ",\"content_type\":"
            string(part.contentType, &out)
            out += ",\"bytes\":\(part.byteCount),\"sha256\":\"\(part.sha256)\",\"value\":"
            string(part.value, &out)
            out += "}"
        }
        return out + "]}"
    }
}
