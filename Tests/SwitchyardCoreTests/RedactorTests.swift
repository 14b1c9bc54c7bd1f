import HTTPTypes
import Logging
import Testing

@testable import Switchyard
@testable import SwitchyardCore
@testable import SwitchyardObservability

/// `Redactor`, the per-exchange masking behind every log line: which header values it hides, which
/// secrets it learns from a request and a response, and how it masks them in free text.
@Suite struct RedactorTests {
    private static func redactor(
        _ url: String, headers: KeyValuePairs<String, String> = [:], redactedHeaders: Set<String> = [],
        redactedQueryParameters: Set<String> = []
    ) throws -> Redactor {
        let configuration = LoggingConfiguration(
            logger: Logger(label: "test"), redactedHeaders: redactedHeaders,
            redactedQueryParameters: redactedQueryParameters)
        return Redactor(
            redactedHeaders: configuration.redactedHeaders,
            queryRedaction: QueryRedaction(parameterNames: configuration.redactedQueryParameters),
            request: try Request(url: url, headers: headers).head)
    }

    @Test func credentialHeadersAreRedactedWhateverTheirCase() throws {
        let redactor = try Self.redactor("https://api.example.com/", redactedHeaders: ["X-Api-Key"])
        for name in ["Authorization", "authorization", "COOKIE", "Set-Cookie", "Proxy-Authorization", "x-api-key", "X-API-KEY"] {
            #expect(redactor.isRedacted(HTTPField.Name(name)!), "\(name)")
        }
        for name in ["Accept", "X-Trace", "Content-Type"] {
            #expect(!redactor.isRedacted(HTTPField.Name(name)!), "\(name)")
        }
    }

    @Test func aRedactedFieldShowsTheMaskAndOthersShowTheirValue() throws {
        let redactor = try Self.redactor("https://api.example.com/")
        #expect(redactor.value(of: HTTPField(name: .authorization, value: "Bearer x")) == "<redacted>")
        #expect(redactor.value(of: HTTPField(name: .accept, value: "application/json")) == "application/json")
    }

    @Test func aURLValuedFieldHasItsCredentialQueryValuesMasked() throws {
        let redactor = try Self.redactor("https://api.example.com/")
        let location = HTTPField(name: .location, value: "https://cdn.example.com/f?sig=SIG-VALUE&size=2")
        #expect(redactor.value(of: location) == "https://cdn.example.com/f?sig=<redacted>&size=2")
    }

    @Test func theURLIsRenderedWithSchemeAuthorityPathAndMaskedQuery() throws {
        let redactor = try Self.redactor(
            "http://api.example.com:8080/items?token=T-1234&page=2&pin=0000",
            redactedQueryParameters: ["PIN"])
        let head = try Request(url: "http://api.example.com:8080/items?token=T-1234&page=2&pin=0000").head
        #expect(redactor.url(of: head) == "http://api.example.com:8080/items?token=<redacted>&page=2&pin=<redacted>")
    }

    @Test func requestSecretsAreMaskedWhereverTheyAppearInFreeText() throws {
        let redactor = try Self.redactor(
            "https://api.example.com/?access_token=QUERY-VALUE",
            headers: ["Authorization": "Bearer TOKEN-VALUE-1", "Cookie": "sid=COOKIE-VALUE"])
        #expect(
            redactor.masking("sent Bearer TOKEN-VALUE-1 with sid=COOKIE-VALUE and QUERY-VALUE")
                == "sent <redacted> with <redacted> and <redacted>")
        #expect(
            redactor.masking("the token alone: TOKEN-VALUE-1.") == "the token alone: <redacted>.",
            "the credential after the scheme is learned too")
        #expect(redactor.masking("nothing secret here") == "nothing secret here")
    }

    @Test func theLongestSecretIsMaskedFirstSoNoFragmentSurvives() throws {
        // "Bearer abcdefgh" contains "abcdefgh": masking the short one first would leave "Bearer <redacted>".
        let redactor = try Self.redactor("https://api.example.com/", headers: ["Authorization": "Bearer abcdefgh"])
        #expect(redactor.masking("header was 'Bearer abcdefgh'") == "header was '<redacted>'")
    }

    @Test func shortQueryValuesAreMaskedInTheURLButNotHuntedInText() throws {
        // Hunting a three-character value would mask unrelated text everywhere.
        let redactor = try Self.redactor("https://api.example.com/?code=abc")
        let head = try Request(url: "https://api.example.com/?code=abc").head
        #expect(redactor.url(of: head) == "https://api.example.com/?code=<redacted>")
        #expect(redactor.masking("abcdef") == "abcdef")
        #expect(Redactor.shortestHuntedQueryValue == 4)
    }

    @Test func secretsLearnedFromAResponseHeadAreMaskedFromThenOn() throws {
        var redactor = try Self.redactor("https://api.example.com/login")
        #expect(redactor.masking("welcome, sid=NEW-SESSION") == "welcome, sid=NEW-SESSION")
        redactor.learnSecrets(from: [.setCookie: "sid=NEW-SESSION", .contentType: "text/plain"])
        #expect(redactor.masking("welcome, sid=NEW-SESSION") == "welcome, <redacted>")
        #expect(redactor.masking("text/plain") == "text/plain", "values of other fields are not secrets")
    }

    @Test func anEmptyCredentialTeachesNothing() throws {
        var redactor = try Self.redactor("https://api.example.com/")
        redactor.learnSecrets(from: [.authorization: ""])
        #expect(redactor.secrets.isEmpty)
        #expect(redactor.masking("some text") == "some text")
    }

    @Test func replacingAllReplacesEveryOccurrenceAndLeavesOtherTextAlone() {
        #expect("a-b-a-b".replacingAll("a", with: "x") == "x-b-x-b")
        #expect("aaaa".replacingAll("aa", with: "b") == "bb")
        #expect("abc".replacingAll("", with: "x") == "abc")
        #expect("abc".replacingAll("zz", with: "x") == "abc")
    }
}
