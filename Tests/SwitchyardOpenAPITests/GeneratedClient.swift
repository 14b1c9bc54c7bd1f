import Foundation
// A client in the shape swift-openapi-generator emits (`Types.swift` + `Client.swift`), written by
// hand for this document, so the tests need not run the generator:
//
//   paths:
//     /echo/greetings/{name}:  get  getGreeting  → 200 application/json Echo
//     /echo:                   post uploadBytes  (application/octet-stream) → 200 application/json Echo
//     /bytes/{count}:          get  download     → 200 application/octet-stream
//     /status/{code}:          get  getStatus    → 200 text/plain
//
// Like generated code, it imports the runtime's SPI and fully qualifies the runtime's names.
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime

/// The operations the generated client offers (`APIProtocol` in generated code).
protocol APIProtocol: Sendable {
    func getGreeting(_ input: Operations.getGreeting.Input) async throws -> Operations.getGreeting.Output
    func uploadBytes(_ input: Operations.uploadBytes.Input) async throws -> Operations.uploadBytes.Output
    func download(_ input: Operations.download.Input) async throws -> Operations.download.Output
    func getStatus(_ input: Operations.getStatus.Input) async throws -> Operations.getStatus.Output
}

/// Schemas of the document.
enum Components {
    enum Schemas {
        /// What the loopback server's `/echo` route reports.
        struct Echo: Codable, Hashable, Sendable {
            var method: Swift.String
            var uri: Swift.String
            var headers: [[Swift.String]]
            var body_length: Swift.Int
            var body_sha256: Swift.String
        }
    }
}

/// The operations, each with its input and output types.
enum Operations {
    enum getGreeting {
        static let id: Swift.String = "getGreeting"
        struct Input: Sendable, Hashable {
            struct Path: Sendable, Hashable { var name: Swift.String }
            struct Query: Sendable, Hashable { var excited: Swift.Bool? }
            var path: Path
            var query: Query
            init(path: Path, query: Query = .init()) {
                self.path = path
                self.query = query
            }
        }
        enum Output: Sendable, Hashable {
            struct Ok: Sendable, Hashable {
                enum Body: Sendable, Hashable { case json(Components.Schemas.Echo) }
                var body: Body
            }
            case ok(Ok)
            case undocumented(statusCode: Swift.Int, OpenAPIRuntime.UndocumentedPayload)
        }
    }

    enum uploadBytes {
        static let id: Swift.String = "uploadBytes"
        struct Input: Sendable, Hashable {
            enum Body: Sendable, Hashable { case binary(OpenAPIRuntime.HTTPBody) }
            var body: Body
        }
        enum Output: Sendable, Hashable {
            struct Ok: Sendable, Hashable {
                enum Body: Sendable, Hashable { case json(Components.Schemas.Echo) }
                var body: Body
            }
            case ok(Ok)
            case undocumented(statusCode: Swift.Int, OpenAPIRuntime.UndocumentedPayload)
        }
    }

    enum download {
        static let id: Swift.String = "download"
        struct Input: Sendable, Hashable {
            struct Path: Sendable, Hashable { var count: Swift.Int }
            var path: Path
        }
        enum Output: Sendable, Hashable {
            struct Ok: Sendable, Hashable {
                enum Body: Sendable, Hashable { case binary(OpenAPIRuntime.HTTPBody) }
                var body: Body
            }
            case ok(Ok)
            case undocumented(statusCode: Swift.Int, OpenAPIRuntime.UndocumentedPayload)
        }
    }

    enum getStatus {
        static let id: Swift.String = "getStatus"
        struct Input: Sendable, Hashable {
            struct Path: Sendable, Hashable { var code: Swift.Int }
            var path: Path
        }
        enum Output: Sendable, Hashable {
            struct Ok: Sendable, Hashable {
                enum Body: Sendable, Hashable { case plainText(OpenAPIRuntime.HTTPBody) }
                var body: Body
            }
            case ok(Ok)
            case undocumented(statusCode: Swift.Int, OpenAPIRuntime.UndocumentedPayload)
        }
    }
}

/// The generated client: every method serialises its input, sends it through the universal client
/// (middlewares, then the transport) and deserialises the response.
struct Client: APIProtocol {
    private let client: UniversalClient

    init(
        serverURL: URL,
        configuration: OpenAPIRuntime.Configuration = .init(),
        transport: any OpenAPIRuntime.ClientTransport,
        middlewares: [any OpenAPIRuntime.ClientMiddleware] = []
    ) {
        self.client = .init(serverURL: serverURL, configuration: configuration, transport: transport, middlewares: middlewares)
    }

    private var converter: Converter { client.converter }

    func getGreeting(_ input: Operations.getGreeting.Input) async throws -> Operations.getGreeting.Output {
        try await client.send(
            input: input,
            forOperation: Operations.getGreeting.id,
            serializer: { input in
                let path = try converter.renderedPath(template: "/echo/greetings/{}", parameters: [input.path.name])
                var request: HTTPTypes.HTTPRequest = .init(soar_path: path, method: .get)
                suppressMutabilityWarning(&request)
                try converter.setQueryItemAsURI(in: &request, style: .form, explode: true, name: "excited", value: input.query.excited)
                request.headerFields[.accept] = "application/json"
                return (request, nil)
            },
            deserializer: { response, responseBody in
                switch response.status.code {
                case 200:
                    let contentType = converter.extractContentTypeIfPresent(in: response.headerFields)
                    let body: Operations.getGreeting.Output.Ok.Body
                    let chosenContentType = try converter.bestContentType(received: contentType, options: ["application/json"])
                    switch chosenContentType {
                    case "application/json":
                        body = try await converter.getResponseBodyAsJSON(
                            Components.Schemas.Echo.self, from: responseBody, transforming: { value in .json(value) })
                    default: preconditionFailure("bestContentType chose an invalid content type.")
                    }
                    return .ok(.init(body: body))
                default:
                    return .undocumented(statusCode: response.status.code, .init(headerFields: response.headerFields, body: responseBody))
                }
            }
        )
    }

    func uploadBytes(_ input: Operations.uploadBytes.Input) async throws -> Operations.uploadBytes.Output {
        try await client.send(
            input: input,
            forOperation: Operations.uploadBytes.id,
            serializer: { input in
                let path = try converter.renderedPath(template: "/echo", parameters: [])
                var request: HTTPTypes.HTTPRequest = .init(soar_path: path, method: .post)
                suppressMutabilityWarning(&request)
                request.headerFields[.accept] = "application/json"
                let body: OpenAPIRuntime.HTTPBody?
                switch input.body {
                case .binary(let value):
                    body = try converter.setRequiredRequestBodyAsBinary(
                        value, headerFields: &request.headerFields, contentType: "application/octet-stream")
                }
                return (request, body)
            },
            deserializer: { response, responseBody in
                switch response.status.code {
                case 200:
                    let contentType = converter.extractContentTypeIfPresent(in: response.headerFields)
                    let body: Operations.uploadBytes.Output.Ok.Body
                    let chosenContentType = try converter.bestContentType(received: contentType, options: ["application/json"])
                    switch chosenContentType {
                    case "application/json":
                        body = try await converter.getResponseBodyAsJSON(
                            Components.Schemas.Echo.self, from: responseBody, transforming: { value in .json(value) })
                    default: preconditionFailure("bestContentType chose an invalid content type.")
                    }
                    return .ok(.init(body: body))
                default:
                    return .undocumented(statusCode: response.status.code, .init(headerFields: response.headerFields, body: responseBody))
                }
            }
        )
    }

    func download(_ input: Operations.download.Input) async throws -> Operations.download.Output {
        try await client.send(
            input: input,
            forOperation: Operations.download.id,
            serializer: { input in
                let path = try converter.renderedPath(template: "/bytes/{}", parameters: [input.path.count])
                var request: HTTPTypes.HTTPRequest = .init(soar_path: path, method: .get)
                suppressMutabilityWarning(&request)
                request.headerFields[.accept] = "application/octet-stream"
                return (request, nil)
            },
            deserializer: { response, responseBody in
                switch response.status.code {
                case 200:
                    let contentType = converter.extractContentTypeIfPresent(in: response.headerFields)
                    let body: Operations.download.Output.Ok.Body
                    let chosenContentType = try converter.bestContentType(received: contentType, options: ["application/octet-stream"])
                    switch chosenContentType {
                    case "application/octet-stream":
                        body = try converter.getResponseBodyAsBinary(
                            OpenAPIRuntime.HTTPBody.self, from: responseBody, transforming: { value in .binary(value) })
                    default: preconditionFailure("bestContentType chose an invalid content type.")
                    }
                    return .ok(.init(body: body))
                default:
                    return .undocumented(statusCode: response.status.code, .init(headerFields: response.headerFields, body: responseBody))
                }
            }
        )
    }

    func getStatus(_ input: Operations.getStatus.Input) async throws -> Operations.getStatus.Output {
        try await client.send(
            input: input,
            forOperation: Operations.getStatus.id,
            serializer: { input in
                let path = try converter.renderedPath(template: "/status/{}", parameters: [input.path.code])
                var request: HTTPTypes.HTTPRequest = .init(soar_path: path, method: .get)
                suppressMutabilityWarning(&request)
                request.headerFields[.accept] = "text/plain"
                return (request, nil)
            },
            deserializer: { response, responseBody in
                switch response.status.code {
                case 200:
                    let contentType = converter.extractContentTypeIfPresent(in: response.headerFields)
                    let body: Operations.getStatus.Output.Ok.Body
                    let chosenContentType = try converter.bestContentType(received: contentType, options: ["text/plain"])
                    switch chosenContentType {
                    case "text/plain":
                        body = try converter.getResponseBodyAsBinary(
                            OpenAPIRuntime.HTTPBody.self, from: responseBody, transforming: { value in .plainText(value) })
                    default: preconditionFailure("bestContentType chose an invalid content type.")
                    }
                    return .ok(.init(body: body))
                default:
                    return .undocumented(statusCode: response.status.code, .init(headerFields: response.headerFields, body: responseBody))
                }
            }
        )
    }
}

// Convenience overloads, as the generator emits them (`getGreeting(path:query:)` …).
extension APIProtocol {
    func getGreeting(path: Operations.getGreeting.Input.Path, query: Operations.getGreeting.Input.Query = .init())
        async throws -> Operations.getGreeting.Output
    { try await getGreeting(Operations.getGreeting.Input(path: path, query: query)) }

    func uploadBytes(body: Operations.uploadBytes.Input.Body) async throws -> Operations.uploadBytes.Output {
        try await uploadBytes(Operations.uploadBytes.Input(body: body))
    }

    func download(path: Operations.download.Input.Path) async throws -> Operations.download.Output {
        try await download(Operations.download.Input(path: path))
    }

    func getStatus(path: Operations.getStatus.Input.Path) async throws -> Operations.getStatus.Output {
        try await getStatus(Operations.getStatus.Input(path: path))
    }
}

// Throwing accessors for the one documented output, as the generator emits them.
extension Operations.getGreeting.Output {
    var ok: Operations.getGreeting.Output.Ok {
        get throws {
            switch self {
            case .ok(let response): return response
            default: throw UnexpectedOutput(description: "expected ok, got \(self)")
            }
        }
    }
}

extension Operations.getGreeting.Output.Ok.Body {
    var json: Components.Schemas.Echo {
        get throws {
            switch self {
            case .json(let body): return body
            }
        }
    }
}

/// The error the output accessors throw for another output (generated code throws its own).
struct UnexpectedOutput: Error, CustomStringConvertible {
    var description: String
}

/// The servers of the document (`Servers` in generated code).
enum Servers {
    /// `https://api.example.com/v1`.
    enum Server1 {
        static func url() throws -> URL { try URL(validatingOpenAPIServerURL: "https://api.example.com/v1") }
    }
}
