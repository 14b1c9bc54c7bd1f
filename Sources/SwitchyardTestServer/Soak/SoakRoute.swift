import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// The `/soak/{id}?size=N` route and its ledger of arrivals per id.
enum SoakRoute {
    /// Arrivals per id, kept until the client takes them (so a long soak holds only the ids in flight).
    final class Ledger: Sendable {
        private let arrivals = NIOLockedValueBox<[String: Int]>([:])

        /// Records an arrival of `id` and returns its number (1 for the first).
        func record(id: String) -> Int {
            arrivals.withLockedValue { table in
                let count = table[id, default: 0] + 1
                table[id] = count
                return count
            }
        }

        /// Arrivals of `id` so far.
        func count(id: String) -> Int {
            arrivals.withLockedValue { $0[id] ?? 0 }
        }

        /// Arrivals of `id` so far, forgetting the id.
        func take(id: String) -> Int {
            arrivals.withLockedValue { $0.removeValue(forKey: id) ?? 0 }
        }

        /// Every id not taken yet, with its arrivals.
        func remaining() -> [String: Int] {
            arrivals.withLockedValue { $0 }
        }
    }

    /// The action for a request to `/soak/{id}`: records the arrival, answers 200 with the id's body.
    static func action(_ request: IncomingRequest, id: Substring, state: ServerState) -> RouteAction {
        let size: Int
        if let text = request.target.value("size") {
            guard let value = Int(text), value >= 0, value <= SoakBody.maxSize else { return Router.badRequest }
            size = value
        } else {
            size = 1024
        }
        let id = String(id)
        let arrival = state.soak.record(id: id)
        if request.target.value("fault") == "reset" { return .reset(bytesBeforeReset: nil) }
        var bytes = [UInt8](repeating: 0, count: size)
        SoakBody.fill(&bytes, id: id)
        var head = ResponseHead(
            status: 200,
            headers: [
                ("Content-Type", "application/octet-stream"),
                (SoakBody.digestHeader, SoakBody.digest(of: bytes)),
                (SoakBody.arrivalHeader, String(arrival))
            ])
        if request.head.method != .GET, request.head.method != .HEAD {
            head.add(SoakBody.requestDigestHeader, request.bodyDigest())
        }
        head.add("Content-Length", String(size))
        return .respond(head, body: ByteBuffer(bytes: bytes))
    }
}
