import HTTPTypes
import SwitchyardCore

/// One exchange of a download: asks for the rest of the partial file (or the whole resource),
/// interprets the answer, streams the body into `FILE.part`, verifies it and moves it into place.
///
/// | answer | meaning | what happens |
/// |---|---|---|
/// | `206` with `Content-Range` starting at the offset | the server continues | appended to the partial file |
/// | `200` | ranges ignored, or `If-Range` saw a changed resource | the partial file is started again |
/// | `206` from another offset, or `416` | the partial file does not fit the resource | ``Outcome/restartWhole`` |
/// | anything else | an error | ``SwitchyardError/Kind/httpStatus``; the partial file stays |
struct DownloadExchange {
    /// What one exchange achieved.
    enum Outcome {
        /// The file is complete, verified and in place.
        case completed(DownloadResult)
        /// The partial file cannot be continued: download the whole resource.
        case restartWhole
    }

    let client: Client
    let request: Request
    let file: PartialFile
    let reporter: ProgressReporter
    let checksum: DownloadChecksum?
    /// Told about every response head (with its exchange's context) as it arrives.
    let responded: @Sendable (HTTPResponse, ExchangeContext) -> Void

    /// Performs the exchange; continues the partial file when `offset > 0` and a validator is known.
    func run(resumingFrom offset: Int64, validator: String?) async throws(SwitchyardError) -> Outcome {
        var request = request
        if request.head.headerFields[.acceptEncoding] == nil {
            // Ranges count bytes of the representation as sent: ask for it unencoded.
            request.head.headerFields[.acceptEncoding] = "identity"
        }
        let resuming = offset > 0 && validator != nil
        if resuming, let validator {
            request.head.headerFields[.range] = "bytes=\(offset)-"
            request.head.headerFields[.ifRange] = validator
        }
        let response = try await client.stream(request)
        let head = response.head
        responded(head, response.context)
        let start: Int64
        let total: Int64?
        switch head.status.code {
        case 206 where resuming:
            guard let range = ContentRange(head.headerFields[.contentRange]), range.start == offset else { return .restartWhole }
            start = offset
            total = range.total ?? range.end + 1
        case 416 where resuming:
            return .restartWhole
        case 200:
            start = 0
            total = head.headerFields[.contentLength].flatMap { Int64($0) }
            try file.storeValidator(Self.validator(of: head))
        default:
            throw .httpStatus(
                "The server answered \(head.status.code) \(head.status.reasonPhrase) to a download request.",
                response: head)
        }

        let output = try FileDescriptor.writing(file.partPath, truncating: start == 0)
        defer { output.close() }
        reporter.begin(completed: start, expected: total)
        var received = start
        do {
            for try await chunk in response.body {
                try output.write(chunk)
                received += Int64(chunk.count)
                reporter.advance(by: chunk.count)
            }
        } catch {
            throw SwitchyardError.wrapping(error)
        }
        if let total, received != total {
            throw .protocolViolation("The download ended after \(received) of \(total) bytes.")
        }
        try output.synchronize()
        output.close()
        if let checksum {
            do throws(SwitchyardError) {
                try checksum.verify(path: file.partPath)
            } catch {
                file.discard()
                throw error
            }
        }
        try file.commit()
        return .completed(
            DownloadResult(
                path: file.destination, byteCount: received,
                resumedFrom: start > 0 ? start : nil, head: head))
    }

    /// The response's strong `ETag`, else its `Last-Modified`: what `If-Range` may carry
    /// (RFC 9110 §13.1.5 forbids weak entity tags there).
    static func validator(of head: HTTPResponse) -> String? {
        if let etag = head.headerFields[.eTag], !etag.hasPrefix("W/") { return etag }
        return head.headerFields[.lastModified]
    }
}
