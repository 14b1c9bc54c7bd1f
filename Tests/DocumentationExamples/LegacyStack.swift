import Foundation
import HTTPTypes
import Switchyard

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The article's wrapped stack as a type (the article builds the same with `ClosureTransport`).
struct LegacyStack: Transport {
    let session: URLSession

    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        guard let url = URL(string: request.head.url?.absoluteString ?? "") else {
            throw SwitchyardError.invalidRequest("no URL")
        }
        let (data, urlResponse) = try await session.data(for: URLRequest(url: url))
        return Response(status: .init(code: (urlResponse as? HTTPURLResponse)?.statusCode ?? 0), body: Array(data))
    }
}
