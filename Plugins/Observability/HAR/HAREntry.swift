import Foundation
import HTTPTypes
import SwitchyardCore

/// One HAR entry: an attempt's request, response and timings.
struct HAREntry: Sendable {
    let started: Date
    let request: HTTPRequest
    let requestHeaders: [[String: String]]
    let requestBodySize: Int
    var response: HTTPResponse?
    var responseHeaders: [[String: String]] = []
    var responseBodySize = 0
    var error: String?
    var timings: [String: Double] = [:]
    var totalMilliseconds = 0.0
    /// HAR's form of the version the transport reported (`HTTP/1.1`, `HTTP/2`); `HTTP/1.1` when unknown.
    var httpVersion = "HTTP/1.1"

    init(started: Date, request: HTTPRequest, requestHeaders: [[String: String]], requestBodySize: Int) {
        self.started = started
        self.request = request
        self.requestHeaders = requestHeaders
        self.requestBodySize = requestBodySize
    }

    /// Converts cumulative transport timings into HAR's consecutive phases (-1 when unknown).
    mutating func finish(timings transfer: TransferTimings, elapsed: TimeInterval) {
        func ms(_ duration: Duration?) -> Double? { duration.map(\.milliseconds) }
        let dns = ms(transfer.dns)
        let connect = ms(transfer.connect)
        let tls = ms(transfer.tls)
        let firstByte = ms(transfer.firstByte)
        let total = ms(transfer.total) ?? elapsed * 1_000
        let connected = tls ?? connect ?? dns ?? 0
        if let version = transfer.httpVersion { httpVersion = "HTTP/\(version)" }
        timings = [
            "blocked": -1, "send": 0,
            "dns": dns ?? -1,
            "connect": connect.map { $0 - (dns ?? 0) } ?? -1,
            "ssl": tls.map { $0 - (connect ?? 0) } ?? -1,
            "wait": firstByte.map { max(0, $0 - connected) } ?? -1,
            "receive": firstByte.map { max(0, total - $0) } ?? -1
        ]
        totalMilliseconds = total
    }

    /// The entry as a HAR JSON object, with the `redaction`'s query values masked in the URL,
    /// the query string and the redirect URL.
    func object(redacting redaction: QueryRedaction) -> [String: Any] {
        let target = redaction.redact(request.path ?? "/")
        let url = redaction.url(of: request)
        let query = HAREntry.queryString(target)
        let redirectURL = self.response?.headerFields[.location].map(redaction.redact) ?? ""
        var response: [String: Any] = [
            "status": self.response.map { $0.status.code } ?? 0,
            "statusText": self.response?.status.reasonPhrase ?? (error ?? ""),
            "httpVersion": httpVersion, "headers": responseHeaders, "cookies": [] as [Any],
            "content": ["size": responseBodySize, "mimeType": self.response?.headerFields[.contentType] ?? ""] as [String: Any],
            "redirectURL": redirectURL, "headersSize": -1, "bodySize": responseBodySize
        ]
        if let error { response["_error"] = error }
        return [
            "startedDateTime": Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(started),
            "time": totalMilliseconds,
            "request": [
                "method": request.method.rawValue, "url": url, "httpVersion": httpVersion, "headers": requestHeaders,
                "queryString": query, "cookies": [] as [Any], "headersSize": -1, "bodySize": requestBodySize
            ] as [String: Any],
            "response": response,
            "cache": [:] as [String: Any],
            "timings": timings
        ]
    }

    /// HAR's `queryString`: one `{"name", "value"}` per query item of `target`, raw as in the URL.
    static func queryString(_ target: String) -> [[String: String]] {
        QueryRedaction.queryItems(of: target).map { ["name": String($0.name), "value": String($0.value)] }
    }
}
