import Foundation
import HTTPTypes

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

    init(started: Date, request: HTTPRequest, requestHeaders: [[String: String]], requestBodySize: Int) {
        self.started = started
        self.request = request
        self.requestHeaders = requestHeaders
        self.requestBodySize = requestBodySize
    }

    /// Converts cumulative transport timings into HAR's consecutive phases (-1 when unknown).
    mutating func finish(timings transfer: TransferTimings, elapsed: TimeInterval) {
        func ms(_ duration: Duration?) -> Double? { duration.map(\.milliseconds) }
        let dns = ms(transfer.dns), connect = ms(transfer.connect), tls = ms(transfer.tls)
        let firstByte = ms(transfer.firstByte), total = ms(transfer.total) ?? elapsed * 1_000
        let connected = tls ?? connect ?? dns ?? 0
        timings = [
            "blocked": -1, "send": 0,
            "dns": dns ?? -1,
            "connect": connect.map { $0 - (dns ?? 0) } ?? -1,
            "ssl": tls.map { $0 - (connect ?? 0) } ?? -1,
            "wait": firstByte.map { max(0, $0 - connected) } ?? -1,
            "receive": firstByte.map { max(0, total - $0) } ?? -1,
        ]
        totalMilliseconds = total
    }

    var object: [String: Any] {
        let url = "\(request.scheme ?? "http")://\(request.authority ?? "")\(request.path ?? "/")"
        let query = HAREntry.queryString(request.path ?? "")
        var response: [String: Any] = [
            "status": self.response.map { $0.status.code } ?? 0,
            "statusText": self.response?.status.reasonPhrase ?? (error ?? ""),
            "httpVersion": "HTTP/1.1", "headers": responseHeaders, "cookies": [] as [Any],
            "content": ["size": responseBodySize, "mimeType": self.response?.headerFields[.contentType] ?? ""] as [String: Any],
            "redirectURL": self.response?.headerFields[.location] ?? "", "headersSize": -1, "bodySize": responseBodySize,
        ]
        if let error { response["_error"] = error }
        return [
            "startedDateTime": Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(started),
            "time": totalMilliseconds,
            "request": [
                "method": request.method.rawValue, "url": url, "httpVersion": "HTTP/1.1", "headers": requestHeaders,
                "queryString": query, "cookies": [] as [Any], "headersSize": -1, "bodySize": requestBodySize,
            ] as [String: Any],
            "response": response,
            "cache": [:] as [String: Any],
            "timings": timings,
        ]
    }

    static func queryString(_ path: String) -> [[String: String]] {
        guard let question = path.firstIndex(of: "?") else { return [] }
        return path[path.index(after: question)...].split(separator: "&").map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return ["name": String(parts[0]), "value": parts.count > 1 ? String(parts[1]) : ""]
        }
    }
}
