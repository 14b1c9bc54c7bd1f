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

    /// A fresh transport of this kind.
    func makeTransport() -> any Transport {
        switch self {
        case .curl: CurlTransport()
        case .urlsession: URLSessionTransport()
        case .ahc: AsyncHTTPClientTransport()
        }
    }

    /// Runs `body` with a fresh transport of this kind, then shuts the transport down
    /// (``Transport/shutdown()``, waiting for what it owns to be released), whatever `body` did.
    func withTransport<Result>(_ body: (any Transport) async throws -> Result) async throws -> Result {
        let transport = makeTransport()
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
