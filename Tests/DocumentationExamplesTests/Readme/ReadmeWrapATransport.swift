import HTTPTypes
import Switchyard
import SwitchyardCurl

// README.md, "Wrap a transport with a chain": compiled (it names example.com, so it is not run).
func readmeWrapATransport() async throws {
    let addUserAgent = ClosureInterceptor { request, context, next in
        var request = request
        request.head.headerFields[.userAgent] = "MyApp/1.0 (exchange \(context.id))"
        return try await next(request)  // call next 0×, 1× or many times
    }
    let client = Client(transport: CurlTransport(), interceptors: [addUserAgent])

    var request = try Request(url: "https://example.com/users/42")
    request.options.timeout = .seconds(5)  // deadline for the whole exchange
    let response = try await client.send(request)  // or client.stream(request) for chunks
    print(response.head.status, response.text, response.timings.firstByte ?? .zero)
}
