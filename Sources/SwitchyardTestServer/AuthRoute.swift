import NIOConcurrencyHelpers
import NIOCore

/// The `/auth/{key}` route: a resource guarded by a bearer token the test sets per key
/// (``LoopbackServer/setAuthToken(_:key:)``), with per-key counts of accepted and refused requests.
final class AuthTokens: Sendable {
    private struct Entry {
        var token: String?
        var accepted = 0
        var refused = 0
        var issued = 0
    }

    private let entries = NIOLockedValueBox<[String: Entry]>([:])

    /// Makes `token` the only one `/auth/{key}` accepts (`nil`: none).
    func setToken(_ token: String?, key: String) {
        entries.withLockedValue { $0[key, default: Entry()].token = token }
    }

    /// Tokens `POST /token/{key}` issued for `key` so far.
    func issuedCount(key: String) -> Int {
        entries.withLockedValue { $0[key]?.issued ?? 0 }
    }

    /// Issues the next token for `key` (`{key}-{n}`), which from now on is the only one
    /// `/auth/{key}` accepts: `{"access_token": "{key}-{n}", "expires_in": 3600}`.
    func issue(key: String) -> RouteAction {
        let token = entries.withLockedValue { entries in
            var entry = entries[key] ?? Entry()
            entry.issued += 1
            let token = "\(key)-\(entry.issued)"
            entry.token = token
            entries[key] = entry
            return token
        }
        return .text(200, #"{"access_token": "\#(token)", "expires_in": 3600}"#, contentType: "application/json")
    }

    /// Requests for `key` answered 200 and 401 so far.
    func counts(key: String) -> (accepted: Int, refused: Int) {
        entries.withLockedValue { entries in
            let entry = entries[key] ?? Entry()
            return (entry.accepted, entry.refused)
        }
    }

    /// 200 `ok {key}\n` when the request's `Authorization` is `Bearer {token}` for the key's token;
    /// otherwise 401 with `WWW-Authenticate: Bearer` and `unauthorized\n`. Counts either outcome.
    func action(key: String, authorization: [String]) -> RouteAction {
        let accepted = entries.withLockedValue { entries in
            var entry = entries[key] ?? Entry()
            let accepted = entry.token.map { authorization == ["Bearer \($0)"] } ?? false
            if accepted { entry.accepted += 1 } else { entry.refused += 1 }
            entries[key] = entry
            return accepted
        }
        if accepted { return .text(200, "ok \(key)\n") }
        return .text(401, "unauthorized\n", headers: [("WWW-Authenticate", "Bearer")])
    }
}
