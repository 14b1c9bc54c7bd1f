import Foundation
import HTTPTypes
import Logging
import Switchyard
import SwitchyardCurl
import SwitchyardObservability
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// Credential query values in log lines, with the default configuration (no names listed by the caller).
@Suite(.timeLimit(.minutes(2)))
struct QueryRedactionLoggingTests {
    private static func send(_ url: String, _ logging: LoggingConfiguration) async throws -> String {
        var configuration = ClientConfiguration()
        configuration.plugins.append(.logging(logging))
        let response = try await Client(transport: CurlTransport(), configuration: configuration)
            .send(try Request(url: url))
        #expect(response.head.status == .ok)
        return response.text
    }

    @Test func theConfigurationStartsFromTheDefaultsAndCanOptOut() {
        var configuration = LoggingConfiguration(logger: Logger(label: "test"), redactedQueryParameters: ["Shop_PIN"])
        #expect(
            configuration.redactedQueryParameters
                == LoggingConfiguration.defaultRedactedQueryParameters.union(["shop_pin"]))
        for name in QueryRedactionTestNames.all {
            #expect(LoggingConfiguration.defaultRedactedQueryParameters.contains(name.lowercased()))
        }
        configuration.redactedQueryParameters = []
        #expect(configuration.redactedQueryParameters.isEmpty)
    }

    @Test func everyDefaultNameIsMaskedAtEveryLevel() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let names = QueryRedactionTestNames.all
        let query = names.enumerated().map { "\($1)=value-\($0)-SECRET" }.joined(separator: "&")
        let log = CapturedLog()
        let echoed = try await Self.send(
            server.url("/echo?page=2&\(query)"),
            LoggingConfiguration(logger: log.logger(level: .trace)))
        #expect(echoed.contains("value-0-SECRET"), "the server received the real values")
        #expect(!log.text.contains("SECRET"), "a credential value leaked:\n\(log.text)")
        let info = try #require(log.messages(at: .debug).first)
        #expect(info.contains("/echo?page=2&token=<redacted>&access_token=<redacted>"))
        #expect(info.contains("&X-Amz-Signature=<redacted>&"))
        let curl = try #require(log.messages(at: .trace).first)
        #expect(curl.contains("X-Goog-Signature=<redacted>"))
    }

    @Test func extraNamesAreAddedToTheDefaults() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        _ = try await Self.send(
            server.url("/echo?shop_pin=PIN-SECRET&token=TOKEN-SECRET"),
            LoggingConfiguration(logger: log.logger(level: .debug), redactedQueryParameters: ["Shop_Pin"]))
        let line = try #require(log.messages(at: .debug).first)
        #expect(line.contains("/echo?shop_pin=<redacted>&token=<redacted> → 200"), "\(line)")
    }

    @Test func anEmptySetOptsOut() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        var logging = LoggingConfiguration(logger: log.logger(level: .debug))
        logging.redactedQueryParameters = []
        _ = try await Self.send(server.url("/echo?token=VISIBLE-TOKEN"), logging)
        let line = try #require(log.messages(at: .debug).first)
        #expect(line.contains("/echo?token=VISIBLE-TOKEN → 200"), "\(line)")
    }

    @Test func urlCredentialsAreSentButNeverLogged() async throws {
        let server = try await LoopbackServer.start()
        defer { Task { try? await server.shutdown() } }
        let log = CapturedLog()
        let url = server.url("/echo").replacingOccurrences(of: "http://", with: "http://ada:PW-SECRET@")
        let echoed = try await Self.send(url, LoggingConfiguration(logger: log.logger(level: .trace)))
        #expect(echoed.contains("Basic "))
        #expect(!log.text.contains("PW-SECRET") && !log.text.contains("ada:"), "\(log.text)")
        #expect(log.text.contains("Authorization: <redacted>"))
    }
}

/// The credential parameter names the defaults must cover, in the case a server would use.
enum QueryRedactionTestNames {
    static let all = [
        "token", "access_token", "refresh_token", "id_token", "api_key", "apikey", "key", "password", "passwd",
        "secret", "client_secret", "signature", "sig", "auth", "session", "code", "X-Amz-Signature",
        "X-Amz-Credential", "X-Amz-Security-Token", "X-Goog-Signature"
    ]
}
