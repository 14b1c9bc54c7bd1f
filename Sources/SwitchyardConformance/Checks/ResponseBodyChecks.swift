import HTTPTypes
import Switchyard
import SwitchyardTestServer

extension TransportConformance {
    static let responseBodyChecks: [ConformanceCheck] = [
        ConformanceCheck("response-body-sizes", .responseBodies, "Bodies from 0 bytes to 1 MiB arrive exactly") { h in
            for size in [0, 1, 65_537, 1 << 20] {
                let response = try await h.get("/bytes/\(size)")
                try expectEqual(response.body.count, size, "bytes received")
                try expect(response.body == PatternBody.bytes(count: size), "the \(size)-byte body differs from what was sent")
            }
        },
        ConformanceCheck("download-64mib-buffered", .responseBodies, "A 64 MiB body buffers whole and intact") { h in
            let size = 64 << 20
            let response = try await h.get("/bytes/\(size)")
            try expectEqual(response.body.count, size, "bytes received")
            try expectEqual(PatternBody.sha256(of: response.body), PatternBody.sha256(count: size), "body digest")
        },
        ConformanceCheck(
            "download-64mib-streamed", .responseBodies, "A 64 MiB body streams with back-pressure: a slow reader holds the server back"
        ) { h in
            let size = 64 << 20
            let response = try await h.client.stream(try h.request(.get, "/bytes/\(size)?tag=slow"))
            var iterator = response.body.makeAsyncIterator()
            var digest = StreamingDigest()
            guard let first = try await iterator.next() else { throw ConformanceFailure("the body ended at once") }
            digest.update(first)
            let bound = 32 << 20
            // Where the subject declares that it has no back-pressure, wait for that to show (an
            // event: the server runs past the bound), for as long as the server keeps writing; a
            // quiet period there would let a stall of a loaded machine pass for back-pressure.
            let ahead =
                h.declaresLimitation
                ? await progress(of: "slow", on: h.server, past: bound)
                : await settledProgress(of: "slow", on: h.server)
            try expect(
                ahead <= bound,
                "the server wrote \(ahead >> 20) MiB while the reader held \(first.count) bytes: no back-pressure")
            while let chunk = try await iterator.next() { digest.update(chunk) }
            try expectEqual(digest.count, size, "bytes received")
            try expectEqual(digest.finalize(), PatternBody.sha256(count: size), "body digest")
        },
        ConformanceCheck("chunked-response", .responseBodies, "A chunked body arrives exactly") { h in
            let response = try await h.get("/bytes/300000?framing=chunked")
            try expect(response.body == PatternBody.bytes(count: 300_000), "the chunked body differs (\(response.body.count) bytes)")
        },
        ConformanceCheck("close-delimited-response", .responseBodies, "A body delimited by the connection closing arrives whole") { h in
            let response = try await h.get("/bytes/300000?framing=close")
            try expect(response.body == PatternBody.bytes(count: 300_000), "the body differs (\(response.body.count) bytes)")
        },
        ConformanceCheck("http10-response", .responseBodies, "An HTTP/1.0 response without a length arrives whole") { h in
            let response = try await h.get("/http10?bytes=300000")
            try expectEqual(response.head.status.code, 200, "status")
            try expect(response.body == PatternBody.bytes(count: 300_000), "the body differs (\(response.body.count) bytes)")
        },
        ConformanceCheck("gzip-decoded", .responseBodies, "gzip and deflate bodies are decoded") { h in
            let expected = String(repeating: "hello, gzip\n", count: 100)
            for path in ["/gzip", "/deflate"] {
                let response = try await h.get(path)
                try expectEqual(response.text, expected, "decoded \(path) body")
                try expectEqual(response.head.headerFields[.contentEncoding], nil, "\(path) Content-Encoding after decoding")
                try expectEqual(response.head.headerFields[.contentLength], nil, "\(path) encoded Content-Length after decoding")
            }
        },
        ConformanceCheck("timings", .responseBodies, "Time to first byte and total time are recorded") { h in
            let response = try await h.get("/bytes/100000")
            let timings = response.timings
            guard let firstByte = timings.firstByte, let total = timings.total else {
                throw ConformanceFailure("timings missing: \(timings)")
            }
            try expect(firstByte > .zero && firstByte <= total, "first byte \(firstByte) is not within total \(total)")
        }
    ]

    /// Waits until the server's progress on `tag` stops growing (or 5 s pass), then returns it.
    ///
    /// A quiet period: on a loaded machine it may end while the server is merely stalled, which
    /// only measures less than the transport would let through. Used where the check expects the
    /// transport to hold the server back, so that an early end cannot fail a transport that does.
    static func settledProgress(of tag: String, on server: LoopbackServer) async -> Int {
        var last = -1
        for _ in 0..<25 {
            let now = server.bodyBytesSent(tag: tag)
            if now == last { return now }
            last = now
            try? await Task.sleep(for: .milliseconds(200))
        }
        return server.bodyBytesSent(tag: tag)
    }

    /// Waits until the server's progress on `tag` is past `bound`, as long as the server keeps
    /// writing (it gives up once 60 s pass without progress, a hang guard for a busy machine), then
    /// returns it. The wait for a failure a subject declares: a transport without back-pressure
    /// lets the server write the whole body, and one that holds the server back ends the wait
    /// only through the guard.
    static func progress(of tag: String, on server: LoopbackServer, past bound: Int) async -> Int {
        var last = server.bodyBytesSent(tag: tag)
        var lastChange = ContinuousClock.now
        while last <= bound, lastChange.duration(to: .now) < .seconds(60) {
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                break  // cancelled
            }
            let now = server.bodyBytesSent(tag: tag)
            if now != last {
                last = now
                lastChange = .now
            }
        }
        return last
    }
}
