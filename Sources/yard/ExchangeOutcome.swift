import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardJSON

/// What `yard request` observed of one exchange: the `-w` variables and the `%{json}` report.
struct ExchangeOutcome {
    let transport: String
    var head: HTTPResponse?
    var context: ExchangeContext?
    var bodyBytes: Int64 = 0
    /// SHA-256 of the body bytes received (of nothing, until a body arrives).
    var sha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The URL of the last request sent: the one given, or where the last redirect followed led.
    var effectiveURL: String
    /// Where a resumed `--output` download continued from.
    var resumedFrom: Int64?
    var error: SwitchyardError?
    var elapsed: Duration = .zero
    /// Everything the client published about the exchange, in order.
    var events: [ExchangeEvent] = []
    /// When `yard` started the exchange: the zero of event times.
    let startedAt: ContinuousClock.Instant
    /// Whether the exchange went through a cache (`--cache`): the JSON then says where the response came from.
    var isCaching = false

    init(transport: String, url: String, startedAt: ContinuousClock.Instant) {
        self.transport = transport
        self.effectiveURL = url
        self.startedAt = startedAt
    }

    /// Requests put on the wire: the first, one per retry and one per redirect followed.
    var attempts: Int {
        1 + events.count { $0.plugin(Retrying.self) != nil } + redirects
    }

    /// Redirects the chain followed.
    var redirects: Int {
        events.count { $0.plugin(Redirected.self) != nil }
    }

    /// The stable `%{json}` object (`-w '%{json}'`): keys and their order are a contract.
    var json: JSONValue {
        let timings = context?.timings ?? TransferTimings()
        var timingMembers: JSONObject = ["total": .rounded((timings.total ?? elapsed).milliseconds)]
        let phases: [(String, Duration?)] = [
            ("dns", timings.dns), ("connect", timings.connect), ("tls", timings.tls), ("ttfb", timings.firstByte)
        ]
        for (name, value) in phases {
            if let value { timingMembers[name] = .rounded(value.milliseconds) }
        }
        let headerPairs: [JSONValue] = (head?.headerFields ?? [:]).map {
            .array([.string($0.name.canonicalName), .string($0.value)])
        }
        // `null` without --cache, or when no response arrived; else the source and the age in seconds.
        let cacheValue: JSONValue =
            isCaching && head != nil
            ? context.map { context in
                let provenance = context.provenance
                return .object([
                    "source": .string(provenance.source.rawValue),
                    "age_s": .rounded(
                        Double(provenance.age?.components.seconds ?? 0)
                            + Double(provenance.age?.components.attoseconds ?? 0) * 1e-18)
                ])
            } ?? .null : .null
        let errorValue: JSONValue =
            error.map {
                .object(["kind": .string($0.kind.rawValue), "message": .string($0.message)])
            } ?? .null
        return .object([
            "ok": .bool(error == nil && head != nil),
            "transport": .string(transport),
            "status": head.map { .integer(Int64($0.status.code)) } ?? .null,
            // "1.0", "1.1" or "2"; null when no response arrived or the transport cannot tell (urlsession).
            "http_version": head != nil ? timings.httpVersion.map { .string($0.description) } ?? .null : .null,
            "headers": .array(headerPairs),
            "body_bytes": .integer(bodyBytes),
            "body_sha256": .string(sha256),
            "resumed_from": resumedFrom.map { .integer($0) } ?? .null,
            "attempts": .integer(Int64(attempts)),
            "redirects": .integer(Int64(redirects)),
            "timings_ms": .object(timingMembers),
            "cache": cacheValue,
            "events": .array(
                events.map { event in
                    .object([
                        "kind": .string(event.kind.name),
                        "attempt": .integer(Int64(event.attempt)),
                        "at_ms": .rounded(startedAt.duration(to: event.at).milliseconds),
                        "detail": .string(event.kind.detail)
                    ])
                }),
            "error": errorValue
        ])
    }
}
