import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    /// What the streams and cookie plugins need from every transport: bytes handed on as they
    /// arrive, and no state of its own between exchanges.
    static let streamingAndStateChecks: [ConformanceCheck] = [
        ConformanceCheck(
            "event-stream-delivered-as-it-arrives", .responseBodies,
            "An event stream's first event is delivered while the response is still open"
        ) { h in
            // The server sends one event and keeps the connection open: a transport that buffers
            // the body until its end never delivers it (the timeout turns that into a failure).
            let request = try h.request(
                .get, "/events/conformance?total=3&per_connection=1&open=1",
                options: RequestOptions(timeout: .seconds(30)))
            let response = try await h.client.stream(request)
            var received: [UInt8] = []
            for try await chunk in response.body {
                received += chunk
                if String(decoding: received, as: UTF8.self).contains("data: event 1\n\n") { break }
            }
            try expect(
                String(decoding: received, as: UTF8.self).hasSuffix("id: 1\ndata: event 1\n\n"),
                "the first event, whole, before the response ended: \(String(decoding: received, as: UTF8.self).debugDescription)")
        },
        ConformanceCheck(
            "no-cookies-or-redirects-of-its-own", .headers,
            "A redirect that sets a cookie reaches the chain as it is; the transport neither follows it nor sends the cookie later"
        ) { h in
            let redirect = try await h.get("/cookies/set?cookie=sid%3Dabc%3B%20Path%3D%2F&cookie=theme%3Ddark&location=/cookies/echo")
            try expectEqual(redirect.head.status.code, 302, "status (redirects are the chain's)")
            try expectEqual(redirect.head.headerFields[values: .setCookie], ["sid=abc; Path=/", "theme=dark"], "Set-Cookie values")
            let later = try await h.get("/cookies/echo")
            try expectEqual(String(decoding: later.body, as: UTF8.self), "", "Cookie fields sent by the transport itself")
        }
    ]
}
