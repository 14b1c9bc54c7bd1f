import HTTPTypes
import SwitchyardCore

#if Cache
import SwitchyardCache
#endif

/// Turns a buffered response into a call's final state, in this order: status, empty body
/// (no data), content type, envelope and decoding (timed into the exchange's `decoding` phase).
struct ResponseReader<Value: Sendable> {
    let endpoint: Endpoint<Value>
    let envelope: Envelope?

    func read(_ response: BufferedResponse, request: Request) throws(SwitchyardError) -> CallState<Value> {
        let status = response.head.status
        let (source, age) = Self.source(of: response.context)
        var info = ResponseInfo(
            request: request.head, head: response.head, context: response.context, source: source, age: age,
            bodySize: response.body.count, userInfo: request.options.userInfo)
        if let limit = endpoint.rawBodyLimit { info.rawBody = Array(response.body.prefix(limit)) }
        guard endpoint.successStatuses.contains(status.code) else {
            response.context.finishRecordingStages()
            let limit = ResponseBodyExcerpt.defaultLimit
            let excerpt = ResponseBodyExcerpt(bytes: Array(response.body.prefix(limit)), isComplete: response.body.count <= limit)
            let preview = excerpt.preview(upTo: 256)
            var error = SwitchyardError.httpStatus(
                "The server answered \(status.code) \(status.reasonPhrase); \(request.head.method) \(endpoint.path) accepts "
                    + Self.describe(endpoint.successStatuses) + "." + (preview.isEmpty ? "" : " Body: \(preview)"),
                response: response.head)
            error.request = request.head
            error.responseBody = excerpt
            throw error
        }
        if response.body.isEmpty || status.code == 204 {
            response.context.finishRecordingStages()
            if let value = endpoint.decoding.emptyBodyValue?() { return .succeeded(APIResponse(value: value, info: info)) }
            return .noData(info)
        }
        let contentType = response.head.headerFields[.contentType]
        guard endpoint.accepts.accepts(contentType) else {
            response.context.finishRecordingStages()
            var error = SwitchyardError(
                .unexpectedContentType,
                "Expected \(endpoint.accepts) from \(request.head.method) \(endpoint.path), got \(contentType ?? "no content type")"
                    + " (status \(status.code), \(response.body.count) bytes): probably an error page, not the API's answer.")
            error.request = request.head
            error.response = response.head
            throw error
        }
        let start = ContinuousClock.now
        let value: Value?
        let notes = DecodingReport.Collector()
        do {
            value = try Self.decode(endpoint.decoding, response.body, envelope, notes: notes)
        } catch {
            response.context.recordDecoding(start.duration(to: .now))
            var error = error
            error.request = request.head
            error.response = response.head
            throw error
        }
        response.context.recordDecoding(start.duration(to: .now))
        info.decodingReport = notes.report
        guard let value else { return .noData(info) }
        return .succeeded(APIResponse(value: value, info: info))
    }

    /// Runs `decoding` with `notes` collecting what a forgiving decode converted or skipped.
    private static func decode(
        _ decoding: ResponseDecoding<Value>, _ body: [UInt8], _ envelope: Envelope?, notes: DecodingReport.Collector
    ) throws(SwitchyardError) -> Value? {
        do {
            return try DecodingReport.$current.withValue(notes) { try decoding.decode(body, envelope) }
        } catch let error as SwitchyardError {
            throw error
        } catch {
            throw .decoding("Could not decode \(Value.self): \(error)", underlyingError: error)
        }
    }

    /// `200–299`, or the statuses listed.
    private static func describe(_ statuses: Set<Int>) -> String {
        if statuses == Set(200...299) { return "200–299" }
        return statuses.sorted().map(String.init).joined(separator: ", ")
    }
}

extension ResponseReader {
    /// Where the exchange's response came from and its age: the cache's provenance with trait
    /// Cache, else the network (without the cache module nothing else answers).
    static func source(of context: ExchangeContext) -> (ResponseSource, Duration?) {
        #if Cache
        let provenance = context.provenance
        return (ResponseSource(provenance.source), provenance.age)
        #else
        return (.network, nil)
        #endif
    }
}
