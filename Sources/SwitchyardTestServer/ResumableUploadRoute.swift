import NIOCore
import NIOHTTP1

/// The `/resumable/{key}` routes (a target that supports "Resumable Uploads for HTTP",
/// draft-ietf-httpbis-resumable-upload-10, interop version 8) and the plain `/upload/sink/{key}`
/// target, which does not. Bodies stream into their upload resource as they arrive (so an
/// interrupted append keeps what arrived); the answer is decided when the request ends.
enum ResumableUploadRoute {
    /// Where a request's body goes, decided when its head arrives.
    enum Intake {
        /// Appended to upload `id` under `generation` (a creation when `creates`).
        case append(id: Int, generation: Int, creates: Bool, completes: Bool)
        /// An offset request for upload `id`.
        case offset(id: Int)
        /// Answered with `action` whatever the body (an error, a deletion).
        case answer(RouteAction)
    }

    static let interopVersion = "8"

    /// Decides the intake of a `/resumable/…` request from its head, and what the connection does now.
    static func intake(head: HTTPRequestHead, target: RequestTarget, state: ServerState) -> (Intake?, ResumableUploads.BodyReaction) {
        let parts = target.components
        let uploads = state.resumableUploads
        if parts.count == 2, head.method != .OPTIONS {
            guard let completes = parseBoolean(head.headers.first(name: "Upload-Complete")) else { return (nil, .proceed) }  // plain
            var length = head.headers.first(name: "Upload-Length").flatMap { Int($0) }
            if completes, length == nil { length = head.headers.first(name: "Content-Length").flatMap { Int($0) } }
            let holdAt = target.value("hold_at").flatMap { Int($0) }
            let cutAt = target.value("cut_at").flatMap { Int($0) }
            let id = uploads.create(key: String(parts[1]), length: length, holdAt: holdAt, cutAt: cutAt)
            guard let begun = uploads.begin(id: id) else { return (.answer(.text(500, "lost\n")), .proceed) }
            return (.append(id: id, generation: begun.generation, creates: true, completes: completes), .proceed)
        }
        guard parts.count == 4, parts[2] == "uploads", let id = Int(parts[3]) else { return (nil, .proceed) }
        guard let begun = uploads.begin(id: id) else { return (.answer(.text(404, "no such upload\n")), .proceed) }
        if let releasing = begun.releasing { state.holds.release(key: releasing, count: nil) }
        let resource = begun.resource
        switch head.method {
        case .HEAD:
            return (.offset(id: id), .proceed)
        case .DELETE:
            uploads.delete(id: id)
            return (.answer(.respond(ResponseHead(status: 204, headers: []), body: ByteBuffer())), .proceed)
        case .PATCH:
            guard head.headers.first(name: "Content-Type")?.lowercased() == "application/partial-upload" else {
                return (.answer(.text(415, "expected Content-Type: application/partial-upload\n")), .proceed)
            }
            guard let completes = parseBoolean(head.headers.first(name: "Upload-Complete")) else {
                return (.answer(.text(400, "Upload-Complete is required\n")), .proceed)
            }
            guard !resource.isComplete else {
                return (.answer(.text(400, "upload is already completed\n", headers: completeFields(true))), .proceed)
            }
            let offset = head.headers.first(name: "Upload-Offset").flatMap { Int($0) }
            guard offset == resource.bytes.count else {
                let problem =
                    "{\"type\":\"https://iana.org/assignments/http-problem-types#mismatching-upload-offset\","
                    + "\"expected-offset\":\(resource.bytes.count),\"provided-offset\":\(offset.map(String.init) ?? "null")}"
                return (
                    .answer(
                        .text(
                            409, problem, contentType: "application/problem+json",
                            headers: [("Upload-Offset", String(resource.bytes.count))] + completeFields(false))), .proceed
                )
            }
            return (.append(id: id, generation: begun.generation, creates: false, completes: completes), .proceed)
        default:
            return (.answer(.text(405, "method not allowed\n", headers: [("Allow", "HEAD, PATCH, DELETE")])), .proceed)
        }
    }

    /// The answer once the request has been read.
    static func action(_ request: IncomingRequest, state: ServerState) -> RouteAction {
        let uploads = state.resumableUploads
        if request.head.method == .OPTIONS {
            let supported = request.target.components.count == 2
            var headers: [(name: String, value: String)] = [("Allow", "OPTIONS, POST, PUT")]
            if supported {
                headers += [("Accept-Patch", "application/partial-upload"), ("Upload-Limit", "max-size=\(ResumableUploads.maxUploadBytes)")]
            }
            return .respond(ResponseHead(status: 204, headers: headers), body: ByteBuffer())
        }
        switch request.resumableIntake {
        case nil:
            return digestAnswer(length: request.bodyLength, sha256: request.bodyDigest(), headers: [])
        case .answer(let action):
            return action
        case .offset(let id):
            guard let resource = lookup(id, uploads, request) else {
                return .text(404, "no such upload\n")
            }
            uploads.noteOffsetReported(id: id, offset: resource.bytes.count)
            var headers =
                [("Upload-Offset", String(resource.bytes.count)), ("Cache-Control", "no-store")] + completeFields(resource.isComplete)
            if let length = resource.length { headers.append(("Upload-Length", String(length))) }
            headers.append(("Upload-Limit", "max-size=\(ResumableUploads.maxUploadBytes)"))
            return .respond(ResponseHead(status: 204, headers: headers), body: ByteBuffer())
        case .append(let id, let generation, let creates, let completes):
            guard let resource = uploads.finishAppend(id: id, generation: generation, completes: completes) else {
                return .text(409, "a newer request for this upload ended this one\n")
            }
            if let failure = resource.failure { return .text(400, "\(failure)\n") }
            if resource.isComplete {
                let sha = BodyDigest.hexDigest(of: resource.bytes)
                return digestAnswer(length: resource.bytes.count, sha256: sha, headers: completeFields(true))
            }
            let location = "/resumable/\(resource.key)/uploads/\(id)"
            var headers = [("Upload-Offset", String(resource.bytes.count))] + completeFields(false)
            if creates {
                headers += [("Location", location), ("Upload-Limit", "max-size=\(ResumableUploads.maxUploadBytes)")]
                return .text(201, "", headers: headers)
            }
            return .respond(ResponseHead(status: 204, headers: headers), body: ByteBuffer())
        }
    }

    /// `{"length":N,"sha256":"…"}`: what the target answers for a complete representation.
    static func digestAnswer(length: Int, sha256: String, headers: [(name: String, value: String)]) -> RouteAction {
        .text(200, "{\"length\":\(length),\"sha256\":\"\(sha256)\"}", contentType: "application/json", headers: headers)
    }

    private static func lookup(_ id: Int, _ uploads: ResumableUploads, _ request: IncomingRequest) -> ResumableUploads.Resource? {
        let parts = request.target.components
        guard parts.count == 4 else { return nil }
        return uploads.resources(key: String(parts[1])).first { $0.id == id }
    }

    private static func completeFields(_ complete: Bool) -> [(name: String, value: String)] {
        [("Upload-Complete", complete ? "?1" : "?0"), ("Upload-Draft-Interop-Version", interopVersion)]
    }

    private static func parseBoolean(_ value: String?) -> Bool? {
        switch value?.filter({ $0 != " " && $0 != "\t" }) {
        case "?1": true
        case "?0": false
        default: nil
        }
    }
}
