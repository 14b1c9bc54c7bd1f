public import SwitchyardCore

#if canImport(Foundation)
public import Foundation
#endif

/// A canned response for an endpoint, so a screen can be built before the API exists; served by
/// ``SampleTransport``.
///
/// ```swift
/// Endpoint<User>(.get, "/users/{id}", at: "data")
///     .sample(json: #"{"data": {"id": "42", "name": "Ada"}}"#)
///     .sample(.failure(.timedOut(), after: .milliseconds(300)))
/// ```
public struct SampleResponse: Sendable {
    /// What the sample answers.
    public enum Answer: Sendable {
        /// A response with this status, header fields and body.
        case response(status: Int, headers: [(String, String)], body: SampleBody)
        /// A failure, as the transport would report it.
        case failure(SwitchyardError)
    }

    /// Where a sample body comes from.
    public enum SampleBody: Sendable {
        /// Bytes given inline.
        case inline([UInt8])
        /// A file read when the sample is served (a file that cannot be read fails the call with
        /// `SwitchyardError.Kind.transport` naming the file).
        case file(path: String)
    }

    /// The answer.
    public var answer: Answer
    /// How long the transport waits before answering (cancellable).
    public var delay: Duration

    /// Creates a sample.
    /// - Parameters:
    ///   - answer: The answer.
    ///   - delay: The wait before answering.
    public init(_ answer: Answer, delay: Duration = .zero) {
        self.answer = answer
        self.delay = delay
    }

    /// A JSON response.
    /// - Parameters:
    ///   - text: The JSON text.
    ///   - status: The status (default 200).
    ///   - delay: The wait before answering.
    /// - Returns: The sample.
    public static func json(_ text: String, status: Int = 200, delay: Duration = .zero) -> Self {
        Self(
            .response(status: status, headers: [("Content-Type", "application/json")], body: .inline(Array(text.utf8))),
            delay: delay)
    }

    /// A JSON response read from a file when served (e.g. a bundle resource's path).
    /// - Parameters:
    ///   - path: The file's path.
    ///   - status: The status.
    ///   - delay: The wait before answering.
    /// - Returns: The sample.
    public static func jsonFile(_ path: String, status: Int = 200, delay: Duration = .zero) -> Self {
        Self(.response(status: status, headers: [("Content-Type", "application/json")], body: .file(path: path)), delay: delay)
    }

    #if canImport(Foundation)
    /// A JSON response from a bundle resource, e.g. `.resource("user", in: .module)`.
    /// - Parameters:
    ///   - name: The resource's name without extension.
    ///   - fileExtension: Its extension (default `json`).
    ///   - bundle: The bundle holding it.
    ///   - delay: The wait before answering.
    /// - Returns: The sample; a missing resource fails the call with a message naming it.
    public static func resource(
        _ name: String, withExtension fileExtension: String = "json", in bundle: Bundle,
        delay: Duration = .zero
    ) -> Self {
        let path = bundle.path(forResource: name, ofType: fileExtension) ?? "\(bundle.bundlePath)/\(name).\(fileExtension)"
        return jsonFile(path, delay: delay)
    }
    #endif

    /// A response with no body, e.g. 204.
    /// - Parameters:
    ///   - status: The status.
    ///   - delay: The wait before answering.
    /// - Returns: The sample.
    public static func empty(status: Int = 204, delay: Duration = .zero) -> Self {
        Self(.response(status: status, headers: [], body: .inline([])), delay: delay)
    }

    /// A failure (e.g. `.timedOut()` or `.connectionFailed("offline")`).
    /// - Parameters:
    ///   - error: The failure.
    ///   - delay: The wait before failing.
    /// - Returns: The sample.
    public static func failure(_ error: SwitchyardError, after delay: Duration = .zero) -> Self {
        Self(.failure(error), delay: delay)
    }
}
