import ArgumentParser
import Switchyard
import SwitchyardAsyncHTTPClient
import SwitchyardCurl
import SwitchyardURLSession

/// The transports `yard` can drive, by their command-line names.
enum TransportChoice: String, ExpressibleByArgument, CaseIterable {
    /// ``CurlTransport``: libcurl's multi interface.
    case curl
    /// ``URLSessionTransport``: Foundation's URLSession (FoundationNetworking on Linux).
    case urlsession
    /// ``AsyncHTTPClientTransport``: swift-server/async-http-client on SwiftNIO.
    case ahc

    /// The names accepted on the command line, for help texts.
    static let names = allCases.map(\.rawValue).joined(separator: ", ")

    /// Runs `body` with a fresh transport of this kind, then releases the transport properly
    /// (AsyncHTTPClient's client is shut down, waiting for its connections to close).
    func withTransport<Result>(_ body: (any Transport) async throws -> Result) async throws -> Result {
        switch self {
        case .curl:
            return try await body(CurlTransport())
        case .urlsession:
            return try await body(URLSessionTransport())
        case .ahc:
            let transport = AsyncHTTPClientTransport()
            do {
                let result = try await body(transport)
                try? await transport.shutdown()
                return result
            } catch {
                try? await transport.shutdown()
                throw error
            }
        }
    }
}
