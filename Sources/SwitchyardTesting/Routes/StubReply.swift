public import Foundation
public import HTTPTypes
public import SwitchyardCore

/// What a ``StubRoute`` answers: a canned response, an error, or your own closure — optionally after a delay.
///
/// ```swift
/// let replies: [StubReply] = [
///     .status(.serviceUnavailable),
///     .text("hello"),
///     try .json(User(id: 42, name: "Ada"), status: .created),
///     .bytes([0xFF, 0xD8, 0xFF], headers: [.contentType: "image/jpeg"]),
///     .failure(.connectionFailed("stubbed: connection refused")),
///     .text("slow").delayed(by: .seconds(2)),
///     .custom { request, _ in Response(status: .ok, body: Array((request.head.path ?? "").utf8)) },
/// ]
/// ```
///
/// A delay honours the exchange: cancelling the calling task ends it with `SwitchyardError.Kind.cancelled`,
/// and a delay that would pass `ExchangeContext.deadline` ends at the deadline with `SwitchyardError.Kind.timeout`.
public struct StubReply: Sendable {
    enum Action: Sendable {
        case respond(HTTPResponse, [UInt8])
        case fail(SwitchyardError)
        case custom(StubTransport.Handler)
    }

    let action: Action
    /// How long the stub waits before answering.
    public private(set) var delay: Duration = .zero

    init(_ action: Action) {
        self.action = action
    }

    // MARK: - Responses

    /// A response with `status`, `headers` and an empty body.
    /// - Parameters:
    ///   - status: The status, e.g. `.notFound`.
    ///   - headers: The header fields.
    /// - Returns: The reply.
    public static func status(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) -> StubReply {
        StubReply(.respond(HTTPResponse(status: status, headerFields: headers), []))
    }

    /// A response with a body of raw bytes.
    /// - Parameters:
    ///   - bytes: The body.
    ///   - status: The status; `200 OK` by default.
    ///   - headers: The header fields, sent as given.
    /// - Returns: The reply.
    public static func bytes(
        _ bytes: some Collection<UInt8>,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    ) -> StubReply {
        StubReply(.respond(HTTPResponse(status: status, headerFields: headers), Array(bytes)))
    }

    /// A response with a UTF-8 text body; adds `Content-Type: text/plain; charset=utf-8` unless `headers` has one.
    /// - Parameters:
    ///   - text: The body text.
    ///   - status: The status; `200 OK` by default.
    ///   - headers: The header fields.
    /// - Returns: The reply.
    public static func text(_ text: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> StubReply {
        bytes(Array(text.utf8), status: status, headers: headers.adding(contentType: "text/plain; charset=utf-8"))
    }

    /// A response with a JSON body encoded from `value`; adds `Content-Type: application/json` unless
    /// `headers` has one.
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status; `200 OK` by default.
    ///   - headers: The header fields.
    ///   - encoder: The encoder; a default `JSONEncoder` unless given.
    /// - Returns: The reply.
    /// - Throws: The encoder's error when `value` cannot be encoded.
    public static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:],
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> StubReply {
        let data = try encoder.encode(value)
        return bytes(data, status: status, headers: headers.adding(contentType: "application/json"))
    }

    // MARK: - Failures and closures

    /// Fails the exchange with `error`, as a transport would.
    /// - Parameter error: The error, e.g. `.connectionFailed("refused")` or `.timedOut()`.
    /// - Returns: The reply.
    public static func failure(_ error: SwitchyardError) -> StubReply {
        StubReply(.fail(error))
    }

    /// Fails the exchange with an error of `kind` and a message saying it was stubbed.
    /// - Parameter kind: The error kind, e.g. `.connectionFailed`.
    /// - Returns: The reply.
    public static func failure(kind: SwitchyardError.Kind) -> StubReply {
        failure(SwitchyardError(kind, "Stubbed \(kind.rawValue) failure."))
    }

    /// Answers with a closure, for replies that depend on the request.
    /// - Parameter handler: Produces the response (or throws the error).
    /// - Returns: The reply.
    public static func custom(_ handler: @escaping StubTransport.Handler) -> StubReply {
        StubReply(.custom(handler))
    }

    // MARK: - Delays

    /// Waits `delay`, then answers with `reply`.
    /// - Parameters:
    ///   - delay: How long to wait.
    ///   - reply: The answer after the wait.
    /// - Returns: The delayed reply.
    public static func delay(_ delay: Duration, then reply: StubReply) -> StubReply {
        reply.delayed(by: delay)
    }

    /// This reply, answered after an extra `delay`.
    /// - Parameter delay: How long to wait before answering.
    /// - Returns: The delayed reply.
    public func delayed(by delay: Duration) -> StubReply {
        var copy = self
        copy.delay += delay
        return copy
    }
}

extension HTTPFields {
    /// These fields, with `Content-Type: value` appended unless a `Content-Type` is already present.
    fileprivate func adding(contentType value: String) -> HTTPFields {
        guard self[.contentType] == nil else { return self }
        var fields = self
        fields[.contentType] = value
        return fields
    }
}
