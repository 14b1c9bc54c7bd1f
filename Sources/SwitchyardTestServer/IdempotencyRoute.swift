import NIOCore
import NIOHTTP1

/// The `/idempotent/{key}/{n}` route: `/flaky/{key}/{n}` that also reports each request's
/// `Idempotency-Key`, so a test can check that every retry of a call carried the same key.
enum IdempotencyRoute {
    /// Arrivals 1…n for `key`: 503 with `Retry-After: 0` and body `fail {attempt} key={K}\n`; later:
    /// 200 `ok after {n} key={K}\n`, where `K` is the request's `Idempotency-Key` (several joined by
    /// `,`; `-` for none). Each arrival is counted under the `/flaky` key `key` and under `"{key} {K}"`
    /// (``LoopbackServer/flakyArrivals(key:)``): the two counts are equal when every arrival carried `K`.
    /// 400 for an invalid `n`.
    static func action(_ request: IncomingRequest, key: Substring, failures: Substring, state: ServerState) -> RouteAction {
        guard !failures.isEmpty, failures.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let n = Int(failures)
        else { return .text(400, "bad request\n") }
        let fields = request.head.headers["Idempotency-Key"]
        let idempotencyKey = fields.isEmpty ? "-" : fields.joined(separator: ",")
        let attempt = state.nextFlakyAttempt(key: String(key))
        _ = state.nextFlakyAttempt(key: "\(key) \(idempotencyKey)")
        guard attempt <= n else { return .text(200, "ok after \(n) key=\(idempotencyKey)\n") }
        return .text(503, "fail \(attempt) key=\(idempotencyKey)\n", headers: [("Retry-After", "0")])
    }
}
