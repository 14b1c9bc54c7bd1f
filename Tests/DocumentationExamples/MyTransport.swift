import Switchyard
import SwitchyardCurl

/// The transport of the README's conformance example: the app's own wrapper around a stack.
struct MyTransport: Transport {
    let wrapped = CurlTransport()

    func send(_ request: Request, context: ExchangeContext) async throws -> Response {
        try await wrapped.send(request, context: context)
    }
}
