import HTTPTypes
import Switchyard

extension TransportConformance {
    static let methodChecks: [ConformanceCheck] = [
        ConformanceCheck("get", .methods, "A GET returns status, header fields and body as sent") { h in
            let response = try await h.get("/small")
            try expectEqual(response.head.status.code, 200, "status")
            try expectEqual(response.text, "hello, world\n", "body")
            try expectEqual(response.head.headerFields[.contentType], "text/plain", "Content-Type")
        },
        ConformanceCheck("methods-with-bodies", .methods, "POST, PUT, PATCH and DELETE send their bodies intact") { h in
            for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
                let body = Array("payload for \(method)".utf8)
                let report = try await h.echo(try h.request(method, "/echo", body: HTTPBody(body)))
                try expectEqual(report.method, method.rawValue, "method")
                try expectEqual(report.bodyLength, body.count, "\(method) body length")
                try expectEqual(report.bodySHA256, PatternBody.sha256(of: body), "\(method) body digest")
            }
        },
        ConformanceCheck("methods-without-bodies", .methods, "Bodiless requests send no body and no chunked framing") { h in
            for method in [HTTPRequest.Method.get, .delete, .options, HTTPRequest.Method("PURGE")!] {
                let report = try await h.echo(try h.request(method, "/echo"))
                try expectEqual(report.method, method.rawValue, "method")
                try expectEqual(report.bodyLength, 0, "\(method) body length")
                try expectEqual(report.values(of: "Transfer-Encoding"), [], "\(method) Transfer-Encoding")
                try expect(
                    report.values(of: "Content-Length").allSatisfy { $0 == "0" },
                    "\(method) sent Content-Length \(report.values(of: "Content-Length"))")
            }
        },
        ConformanceCheck("head", .methods, "HEAD returns the head with Content-Length and no body; the connection stays usable") { h in
            let response = try await h.send(try h.request(.head, "/bytes/5000"))
            try expectEqual(response.head.status.code, 200, "status")
            try expectEqual(response.head.headerFields[.contentLength], "5000", "Content-Length")
            try expectEqual(response.body.count, 0, "body bytes")
            try expectEqual(try await h.get("/small").text, "hello, world\n", "the next request's body")
        },
        ConformanceCheck("no-content", .methods, "204 and 304 responses have empty bodies") { h in
            for code in [204, 304] {
                let response = try await h.get("/status/\(code)")
                try expectEqual(response.head.status.code, code, "status")
                try expectEqual(response.body.count, 0, "\(code) body bytes")
            }
            try expectEqual(try await h.get("/small").text, "hello, world\n", "the next request's body")
        }
    ]
}
