import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardJSON
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

/// A failed call keeps what the server said: its body, a problem document, a declared error model.
@Suite(.timeLimit(.minutes(2)))
struct ErrorBodyTests {
    struct ServiceError: Decodable, Sendable, Equatable {
        var code: String
        var message: String
    }

    /// An endpoint the server answers with `status` and `body` of `contentType`.
    private func failing(_ status: Int, _ body: String, contentType: String = "application/json") -> Endpoint<[Item]> {
        echoing([Item].self, body, contentType: contentType).query("status", status)
    }

    private static let problem = #"""
        {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
         "status": 403, "detail": "Your current balance is 30, but that costs 50.", "instance": "/account/12345/msgs/abc",
         "balance": 30, "accounts": ["/account/12345", "/account/67890"], "title_extra": true}
        """#

    @Test(arguments: TransportKind.allCases)
    func aProblemDocumentIsDecodedOnTheErrorWithTheBodyAndTheHead(_ kind: TransportKind) async throws {
        for configuration in [ClientConfiguration(), .standard] {  // the reader's check, and the validation link's
            try await withAPI(kind, configuration: configuration) { api, _ in
                let state = await api.call(failing(403, Self.problem, contentType: "application/problem+json")).result()
                let error = try #require(state.error)
                #expect(error.kind == .httpStatus)
                #expect(error.response?.status.code == 403)
                #expect(error.responseBody?.text == Self.problem)
                #expect(error.responseBody?.isComplete == true)
                let problem = try #require(error.problem)
                #expect(problem.type == "https://example.com/probs/out-of-credit")
                #expect(problem.title == "You do not have enough credit.")
                #expect(problem.status == 403)
                #expect(problem.detail == "Your current balance is 30, but that costs 50.")
                #expect(problem.instance == "/account/12345/msgs/abc")
                #expect(problem.extensions["balance"] == .integer(30))
                #expect(Set(problem.extensions.keys) == ["balance", "accounts", "title_extra"])
            }
        }
    }

    @Test func membersOfTheWrongTypeAreIgnoredAsRFC9457Asks() async throws {
        try await withAPI { api, _ in
            let body = #"{"title": 42, "status": "403", "detail": "Still readable."}"#
            let error = try #require(await api.call(failing(400, body, contentType: "application/problem+json")).result().error)
            #expect(error.problem == ProblemDetails(detail: "Still readable."))
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anEndpointsOrTheClientsErrorModelIsDecoded(_ kind: TransportKind) async throws {
        let body = #"{"error": {"code": "E42", "message": "Out of stock"}}"#
        try await withAPI(kind, configuration: .standard) { api, _ in
            let declared = failing(409, body).errorModel(.json(ServiceError.self, at: "error"))
            let error = try #require(await api.call(declared).result().error)
            #expect(error.errorModel(as: ServiceError.self) == ServiceError(code: "E42", message: "Out of stock"))
            #expect(error.problem == nil, "not a problem document")

            var clientWide = api
            clientWide.errorModel = .json(ServiceError.self, at: "error")
            let fromClient = try #require(await clientWide.call(failing(500, body)).result().error)
            #expect(fromClient.errorModel(as: ServiceError.self)?.code == "E42")

            let undecodable = try #require(
                await clientWide.call(failing(500, "<html>down</html>", contentType: "text/html")).result().error)
            #expect(undecodable.errorModel(as: ServiceError.self) == nil)
            #expect(undecodable.responseBody?.text == "<html>down</html>", "the body is kept when the model does not fit")
        }
    }

    @Test func aLargeErrorBodyIsKeptUpTo64KiB() async throws {
        try await withAPI(configuration: .standard) { api, _ in
            let big = String(repeating: "x", count: 100_000)
            let error = try #require(await api.call(failing(502, big, contentType: "text/plain")).result().error)
            #expect(error.responseBody?.bytes.count == 64 * 1024)
            #expect(error.responseBody?.isComplete == false)
            #expect(error.message.count < 1_000, "the message quotes only a short preview")
        }
    }

    @Test func thePopUpPolicyMayUseTheServersMessageWhenTheAppAsks() async throws {
        try await withAPI { api, _ in
            let error = try #require(await api.call(failing(403, Self.problem, contentType: "application/problem+json")).result().error)
            let request = try Request(url: "https://api.example.com/x")
            #expect(PopUpPolicy().popUp(for: error, request: request)?.message == "You don't have access to this.")
            var popUps = PopUpPolicy()
            popUps.errorText = { $0.problem?.detail }
            #expect(popUps.popUp(for: error, request: request)?.message == "Your current balance is 30, but that costs 50.")
        }
    }
}
