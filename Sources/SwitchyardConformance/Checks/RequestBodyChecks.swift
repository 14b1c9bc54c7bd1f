import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let requestBodyChecks: [ConformanceCheck] = [
        ConformanceCheck(
            "single-use-body-sent-once", .requestBodies, "A single-use body sent a second time fails with invalidRequest, sending nothing"
        ) { h in
            let body = HTTPBody(
                AsyncStream<ArraySlice<UInt8>> { continuation in
                    continuation.yield(ArraySlice("once".utf8))
                    continuation.finish()
                })
            let request = try h.request(.post, "/echo", body: body)
            try expectEqual(try await h.echo(request).bodyLength, 4, "body length of the first send")
            try await h.expectFailure(.invalidRequest, "sending a single-use body again") { _ = try await h.client.send(request) }
            try expectEqual(h.server.requestCount(path: "/echo"), 1, "requests the server received")
        },
        ConformanceCheck("empty-request-body", .requestBodies, "An empty body is sent as Content-Length: 0") { h in
            let report = try await h.echo(try h.request(.post, "/echo", body: HTTPBody([UInt8]())))
            try expectEqual(report.bodyLength, 0, "body length")
            try expectEqual(report.values(of: "Content-Length"), ["0"], "Content-Length")
        },
        ConformanceCheck("request-body-sizes", .requestBodies, "In-memory bodies from 1 byte to 1 MiB arrive intact with Content-Length") {
            h in
            for size in [1, 65_537, 1 << 20] {
                let report = try await h.echo(try h.request(.put, "/echo", body: HTTPBody(PatternBody.bytes(count: size))))
                try expectEqual(report.values(of: "Content-Length"), ["\(size)"], "Content-Length")
                try expectEqual(report.bodySHA256, PatternBody.sha256(count: size), "digest of \(size) bytes")
            }
        },
        ConformanceCheck("streamed-upload-known-length", .requestBodies, "A streamed body of known length goes with Content-Length") { h in
            let size = 8 << 20
            let body = PatternBody.stream(count: size, declaresLength: true)
            let report = try await h.echo(try h.request(.post, "/echo", body: body))
            try expectEqual(report.values(of: "Content-Length"), ["\(size)"], "Content-Length")
            try expectEqual(report.values(of: "Transfer-Encoding"), [], "Transfer-Encoding")
            try expectEqual(report.bodySHA256, PatternBody.sha256(count: size), "body digest")
        },
        ConformanceCheck("streamed-upload-unknown-length", .requestBodies, "A streamed body of unknown length goes chunked") { h in
            let size = 8 << 20
            let body = PatternBody.stream(count: size, declaresLength: false)
            let report = try await h.echo(try h.request(.post, "/echo", body: body))
            try expectEqual(report.values(of: "Transfer-Encoding").map { $0.lowercased() }, ["chunked"], "Transfer-Encoding")
            try expectEqual(report.bodyLength, size, "body length")
            try expectEqual(report.bodySHA256, PatternBody.sha256(count: size), "body digest")
        },
        ConformanceCheck("upload-64mib", .requestBodies, "A 64 MiB streamed upload arrives intact") { h in
            let size = 64 << 20
            let body = PatternBody.stream(count: size, chunkSize: 256 * 1024, declaresLength: true)
            let report = try await h.echo(try h.request(.post, "/echo", body: body))
            try expectEqual(report.bodyLength, size, "body length")
            try expectEqual(report.bodySHA256, PatternBody.sha256(count: size), "body digest")
        }
    ]
}
