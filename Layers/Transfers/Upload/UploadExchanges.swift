import HTTPTypes
import SwitchyardCore

/// The requests of an ``Upload``, following "Resumable Uploads for HTTP"
/// (draft-ietf-httpbis-resumable-upload-10, interop version 8), "careful upload creation" (the
/// upload resource is created before any byte is sent, since not every transport can show the
/// `104` interim response that would otherwise carry its `Location`):
///
/// | step | request | answer |
/// |---|---|---|
/// | discover | `OPTIONS target` | `Accept-Patch` listing `application/partial-upload`: resumable |
/// | create | the app's request, `Upload-Complete: ?0`, `Upload-Length`, no content | `2xx` + `Location` of the upload resource |
/// | offset | `HEAD resource` | `Upload-Offset`, `Upload-Complete` |
/// | append | `PATCH resource`, `Upload-Offset`, `Upload-Complete: ?1`, `Content-Type: application/partial-upload`, the rest | the target's final answer |
/// | cancel | `DELETE resource` | `204` |
/// | plain | the app's request with the whole body | the target's answer |
struct UploadExchanges: Sendable {
    let client: Client
    let request: Request

    private var host: String { request.head.authority ?? "the server" }

    /// Whether the target announces resumable uploads (`OPTIONS`, `Accept-Patch`).
    func discover() async throws(SwitchyardError) -> Bool {
        var head = request.head
        head.method = .options
        head.headerFields = request.head.headerFields.filter { $0.name == .authorization || $0.name == .cookie }
        head.headerFields[.uploadDraftInteropVersion] = ResumableUploadFields.interopVersion
        do {
            let response = try await client.send(Request(head, options: request.options.withoutBodyObserver))
            guard response.head.status.kind == .successful else { return false }
            return ResumableUploadFields.acceptsPartialUploads(response.head.headerFields[values: .acceptPatchTypes])
        } catch  where error.kind == .httpStatus {
            return false  // e.g. 405: the target does not answer OPTIONS, so it announces nothing
        }
    }

    /// Creates the upload resource and returns its absolute URL.
    func create(length: Int64?) async throws(SwitchyardError) -> String {
        var head = request.head
        head.headerFields[.uploadComplete] = ResumableUploadFields.boolean(false)
        head.headerFields[.uploadDraftInteropVersion] = ResumableUploadFields.interopVersion
        if let length { head.headerFields[.uploadLength] = String(length) }
        head.headerFields[.contentLength] = nil
        let response = try await client.send(Request(head, body: HTTPBody([]), options: request.options.withoutBodyObserver))
        guard response.head.status.kind == .successful else {
            throw .httpStatus(
                "\(host) refused to create an upload resource (\(response.head.status.code) \(response.head.status.reasonPhrase)).",
                response: response.head)
        }
        guard let location = response.head.headerFields[.location], let url = resolve(location) else {
            throw .protocolViolation(
                "\(host) answered the upload creation with \(response.head.status.code) but no usable Location:"
                    + " it does not support resumable uploads. Use Upload.Configuration(resumption: .discover) or .disabled.")
        }
        return url
    }

    /// The upload resource's offset and whether the upload is complete (`HEAD`).
    func offset(of resource: String) async throws(SwitchyardError) -> (offset: Int64, isComplete: Bool, response: BufferedResponse) {
        let response = try await client.send(try resourceRequest(.head, resource))
        guard response.head.status.kind == .successful else {
            throw .httpStatus(
                "\(host) no longer has the upload (\(response.head.status.code) \(response.head.status.reasonPhrase)"
                    + " for \(resource)); start a new upload.",
                response: response.head)
        }
        guard let offset = ResumableUploadFields.parseOffset(response.head.headerFields[.uploadOffset]) else {
            throw .protocolViolation("\(host) answered the offset request for \(resource) without a valid Upload-Offset.")
        }
        let complete = ResumableUploadFields.parseBoolean(response.head.headerFields[.uploadComplete]) ?? false
        return (offset, complete, response)
    }

    /// Appends `body` (the representation from `offset` on, to its end) to the upload resource.
    func append(
        _ body: HTTPBody, at offset: Int64, to resource: String, observer: SentBytesObserver
    ) async throws(SwitchyardError) -> BufferedResponse {
        var append = try resourceRequest(.patch, resource)
        append.head.headerFields[.uploadOffset] = String(offset)
        append.head.headerFields[.uploadComplete] = ResumableUploadFields.boolean(true)
        append.head.headerFields[.contentType] = ResumableUploadFields.partialUploadType
        append.body = body
        append.options.sentBytesObserver = observer
        return try await client.send(append)
    }

    /// Deletes the upload resource (best effort: failures are ignored).
    func delete(_ resource: String) async {
        guard let delete = try? resourceRequest(.delete, resource) else { return }
        _ = try? await client.send(delete)
    }

    /// Sends the app's request with `body` as it is: a plain upload.
    func sendWhole(_ body: HTTPBody, observer: SentBytesObserver) async throws(SwitchyardError) -> BufferedResponse {
        var options = request.options
        options.sentBytesObserver = observer
        return try await client.send(Request(request.head, body: body, options: options))
    }

    /// A request for the upload resource at `resource` (an absolute URL the server gave), with the
    /// original request's credentials (`Authorization`, `Cookie`) and options, and the interop version.
    private func resourceRequest(_ method: HTTPRequest.Method, _ resource: String) throws(SwitchyardError) -> Request {
        var made = try Request(method: method, url: resource, options: request.options.withoutBodyObserver)
        for field in request.head.headerFields where field.name == .authorization || field.name == .cookie {
            made.head.headerFields.append(field)
        }
        made.head.headerFields[.uploadDraftInteropVersion] = ResumableUploadFields.interopVersion
        return made
    }

    /// `location` as an absolute URL against the request's scheme and authority.
    private func resolve(_ location: String) -> String? {
        if location.hasPrefix("http://") || location.hasPrefix("https://") { return location }
        guard location.hasPrefix("/"), let scheme = request.head.scheme, let authority = request.head.authority else { return nil }
        return "\(scheme)://\(authority)\(location)"
    }
}

extension RequestOptions {
    /// These options without a sent-bytes observer: for the protocol's requests that carry no
    /// bytes of the upload.
    fileprivate var withoutBodyObserver: RequestOptions {
        var options = self
        options.sentBytesObserver = nil
        return options
    }
}
