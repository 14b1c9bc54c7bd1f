import Foundation
import Switchyard
import SwitchyardAuth
import SwitchyardCurl
import SwitchyardPostgres

/// The bearer credential of `yard burst --token-url`: fetched with a `POST` to the token URL,
/// answered `{"access_token": "...", "expires_in": seconds}`, and fetched again after a `401` —
/// once for the whole fleet with `--shared-state`, once for this process without it.
enum BurstCredentials {
    /// The provider the flags ask for: the fleet's through `shared`, or this process's.
    static func provider(tokenURL: String, shared: PostgresSharedState?, timeout: Duration) -> any CredentialProvider {
        let fetch = fetcher(tokenURL)
        guard let shared else { return LocalTokenProvider(fetch: fetch) }
        return SharedCredentialProvider(shared: shared, key: tokenURL, lockTimeout: timeout, fetch: fetch)
    }

    /// POSTs to `tokenURL` (with the refresh token as the body, when there is one) and reads the token.
    static func fetcher(_ tokenURL: String) -> SharedCredentialProvider.Fetch {
        { stale in
            let client = Client(transport: CurlTransport(), interceptors: [])
            var request = try Request(method: .post, url: tokenURL)
            request.body = HTTPBody(Array((stale?.refreshToken ?? "").utf8))
            let response = try await client.send(request)
            guard response.head.status == .ok,
                let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let token = object["access_token"] as? String, !token.isEmpty
            else {
                throw SwitchyardError(.unauthorized, "The token endpoint answered \(response.head.status.code) without an access_token.")
            }
            let refreshToken = object["refresh_token"] as? String
            return SharedCredentialProvider.Record(credential: BearerCredential(token: token), refreshToken: refreshToken)
        }
    }
}

/// A token fetched on first use and again on each refresh, in this process alone.
actor LocalTokenProvider: CredentialProvider {
    private let fetch: SharedCredentialProvider.Fetch
    private var record: SharedCredentialProvider.Record?

    init(fetch: @escaping SharedCredentialProvider.Fetch) {
        self.fetch = fetch
    }

    func current() async throws -> BearerCredential {
        if let record { return record.credential }
        let fresh = try await fetch(nil)
        record = fresh
        return fresh.credential
    }

    func refresh(stale: BearerCredential) async throws -> BearerCredential {
        let fresh = try await fetch(record)
        record = fresh
        return fresh.credential
    }
}
