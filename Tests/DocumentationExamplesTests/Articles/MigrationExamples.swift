import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTestServer
import SwitchyardTestSupport
import SwitchyardURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Sources/Switchyard/Switchyard.docc/ReplaceYourNetworkingFramework.md: the "before" and every
// step after it, run against the loopback server's /echo route.

struct Profile: Decodable, Sendable {
    var method: String
    var uri: String
}

enum AppError: Error { case badStatus(Int) }

actor TokenStore {
    func current() -> String { "token-1" }
}

// doc:before
final class ProfileService: Sendable {
    let baseURL: URL
    let tokens: TokenStore

    init(baseURL: URL, tokens: TokenStore) {
        self.baseURL = baseURL
        self.tokens = tokens
    }

    func profile(id: Int) async throws -> Profile {
        var request = URLRequest(url: baseURL.appendingPathComponent("echo/users/\(id)"))
        request.setValue("Bearer \(await tokens.current())", forHTTPHeaderField: "Authorization")
        request.setValue("shop/5.2", forHTTPHeaderField: "X-Client")
        request.timeoutInterval = 60
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw AppError.badStatus(status) }
        return try JSONDecoder().decode(Profile.self, from: data)
    }
}
// end

func migratedClient(tokens: TokenStore) throws -> Client {
    // doc:after-client
    var configuration = ClientConfiguration()  // retry, redirects and events come with it
    configuration.validation = StatusValidation(accepted: 200..<300)
    configuration.headers = [
        HeaderRules(
            owner: "app",
            rules: [
                .set("X-Client", "shop/5.2"),
                .set("Authorization") { _, _ in "Bearer \(await tokens.current())" }
            ])
    ]
    let client = try Client(transport: URLSessionTransport(wrapping: .shared), configuration: configuration)
    // end
    return client
}

func swappedClient(configuration: ClientConfiguration) throws -> Client {
    // doc:swap
    let client = try Client(transport: CurlTransport(), configuration: configuration)
    // end
    return client
}

// doc:after-call
final class MigratedProfileService: Sendable {
    let baseURL: String
    let client: Client

    init(baseURL: String, client: Client) {
        self.baseURL = baseURL
        self.client = client
    }

    func profile(id: Int) async throws -> Profile {
        var request = try Request(url: "\(baseURL)/echo/users/\(id)")
        request.options.timeout = .seconds(60)  // the whole call, retries included
        let response = try await client.send(request)  // a non-2xx status throws .httpStatus
        return try JSONDecoder().decode(Profile.self, from: Data(response.body))
    }
}
// end

@Suite struct MigrationExamples {
    @Test func beforeAndAfterAgree() async throws {
        try await withLoopbackServer { server in
            let tokens = TokenStore()
            let before = try await ProfileService(baseURL: try #require(URL(string: server.baseURL)), tokens: tokens).profile(id: 7)
            let client = try migratedClient(tokens: tokens)
            let after = try await MigratedProfileService(baseURL: server.baseURL, client: client).profile(id: 7)
            let overCurl = try await MigratedProfileService(
                baseURL: server.baseURL,
                client: swappedClient(configuration: ClientConfiguration())
            ).profile(id: 7)
            #expect(before.uri == "/echo/users/7" && after.uri == before.uri && overCurl.uri == before.uri)
        }
    }
}
