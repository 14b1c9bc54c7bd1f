import HTTPTypes
import Switchyard

extension TransportConformance {
    static let headerChecks: [ConformanceCheck] = [
        ConformanceCheck("request-header-fidelity", .headers, "Request header fields arrive in order, with repeats and name case kept") {
            h in
            let sent: KeyValuePairs<String, String> = [
                "X-First": "1", "x-lower": "2", "X-Repeat": "one", "X-Repeat": "two", "X-MiXeD-CaSe": "v", "X-Last": "3"
            ]
            let report = try await h.echo(try h.request(.get, "/echo", headers: sent))
            let received = report.headers.filter { $0.first?.lowercased().hasPrefix("x-") == true }
            try expectEqual(received, sent.map { [$0.key, $0.value] }, "X- fields received")
        },
        ConformanceCheck(
            "no-invented-request-fields", .headers, "A GET carries only framing and negotiation fields besides the caller's"
        ) { h in
            let report = try await h.echo(try h.request(.get, "/echo"))
            let added = Set(report.names.map { $0.lowercased() }).subtracting(transportAddedRequestFields)
            try expectEqual(added, [], "GET fields the caller did not send")
        },
        ConformanceCheck(
            "no-invented-post-fields", .headers,
            "A POST carries only framing and negotiation fields besides the caller's, never a Content-Type"
        ) { h in
            let report = try await h.echo(try h.request(.post, "/echo", body: HTTPBody("raw")))
            let added = Set(report.names.map { $0.lowercased() }).subtracting(transportAddedRequestFields)
            try expectEqual(added, [], "POST fields the caller did not send")
        },
        ConformanceCheck("response-header-order", .headers, "Response header fields keep the server's order") { h in
            let response = try await h.get("/headers/many?count=20")
            let names = response.head.headerFields.map(\.name.canonicalName).filter { $0.hasPrefix("x-header-") }
            try expectEqual(names, (1...20).map { "x-header-\($0)" }, "field order")
        },
        ConformanceCheck("response-header-repeats", .headers, "Repeated response fields stay separate fields") { h in
            let response = try await h.get("/headers/many?count=1")
            try expectEqual(response.head.headerFields[values: .setCookie], ["a=1", "b=2"], "Set-Cookie values")
        },
        ConformanceCheck("response-header-case", .headers, "Response field names keep the server's case") { h in
            let response = try await h.get("/headers/many?count=1")
            let names = response.head.headerFields.map(\.name.rawName)
            try expect(names.contains("X-MiXeD-CaSe"), "no field named exactly X-MiXeD-CaSe in \(names)")
        },
        ConformanceCheck("many-response-headers", .headers, "A response with 1,000 header fields arrives whole") { h in
            let response = try await h.get("/headers/many?count=1000")
            let fields = response.head.headerFields
            for i in 1...1000 {
                let name = HTTPField.Name("X-Header-\(i)")!
                try expectEqual(fields[name], "value-\(i)", "X-Header-\(i)")
            }
        },
        ConformanceCheck("large-response-header", .headers, "A 64 KiB response header value arrives whole") { h in
            let response = try await h.get("/headers/giant?bytes=65536")
            let value = response.head.headerFields[HTTPField.Name("X-Giant")!] ?? ""
            try expectEqual(value.utf8.count, 65536, "X-Giant length")
        },
        ConformanceCheck("large-request-headers", .headers, "200 request fields and a 32 KiB value arrive whole") { h in
            var request = try h.request(.get, "/echo")
            for i in 1...200 { request.head.headerFields.append(try .validated(name: "X-Field-\(i)", value: "v\(i)")) }
            request.head.headerFields.append(try .validated(name: "X-Big", value: String(repeating: "b", count: 32 * 1024)))
            let report = try await h.echo(request)
            for i in 1...200 { try expectEqual(report.values(of: "X-Field-\(i)"), ["v\(i)"], "X-Field-\(i)") }
            try expectEqual(report.values(of: "X-Big").first?.utf8.count, 32 * 1024, "X-Big length")
        }
    ]
}

extension TransportConformance {
    /// Request fields a transport may add on its own; anything else it adds is a surprise.
    public static let transportAddedRequestFields: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te",
        "accept-encoding", "user-agent", "accept", "accept-language", "expect"
    ]
}
