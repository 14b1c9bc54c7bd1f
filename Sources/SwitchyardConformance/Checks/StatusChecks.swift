import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let statusChecks: [ConformanceCheck] = [
        ConformanceCheck("status-codes", .statuses, "Every final status is returned as a response, not an error") { h in
            for code in [201, 202, 203, 400, 401, 404, 418, 429, 500, 502, 503, 599] {
                let response = try await h.get("/status/\(code)")
                try expectEqual(response.head.status.code, code, "status")
                try expectEqual(response.text, "status \(code)\n", "\(code) body")
            }
        },
        ConformanceCheck("expect-continue", .statuses, "Expect: 100-continue uploads complete; the 100 is never returned") { h in
            let body = PatternBody.bytes(count: 1 << 20)
            let report = try await h.echo(try h.request(.post, "/echo", headers: ["Expect": "100-continue"], body: HTTPBody(body)))
            try expectEqual(report.bodyLength, body.count, "body length")
            try expectEqual(report.bodySHA256, PatternBody.sha256(count: body.count), "body digest")
        },
        ConformanceCheck("interim-response", .statuses, "A 103 Early Hints before the final response is consumed, not returned") { h in
            let response = try await h.get("/early-hints")
            try expectEqual(response.head.status.code, 200, "status")
            try expectEqual(response.text, "hints\n", "body")
        },
        ConformanceCheck("redirect-returned", .statuses, "A redirect is returned as is and not followed") { h in
            let response = try await h.get("/redirect/1")
            try expectEqual(response.head.status.code, 302, "status")
            try expectEqual(response.head.headerFields[.location], "/redirect/0", "Location")
            try expectEqual(h.server.requestCount(path: "/redirect/0"), 0, "requests for the redirect target")
        }
    ]
}
