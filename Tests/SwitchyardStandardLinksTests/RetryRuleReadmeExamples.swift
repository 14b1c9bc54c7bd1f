import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTransportKit

// README.md, "Retry rules and idempotency keys": compiled, never run (it names api.example.com);
// the behaviour is tested in RetryRuleTests and IdempotencyKeyTests. The body of this function is
// the README's block verbatim, under the same imports.
func readmeRetryRulesAndIdempotencyKeys(json: [UInt8]) async throws {
    var configuration = ClientConfiguration()
    configuration.retry?.shouldRetry = { attempt in
        // This API answers 409 while a resource settles: try again (after the usual back-off).
        if attempt.response?.status.code == 409 { return .retry }
        // Its own wait header, in milliseconds.
        if let value = attempt.response?.headerFields[HTTPField.Name("X-Retry-In-Ms")!], let ms = Int(value) {
            return .retry(after: .milliseconds(ms))
        }
        // Exports are expensive: never repeat them, whatever went wrong.
        if attempt.request.path?.hasPrefix("/exports") == true { return .doNotRetry }
        return .useBuiltIn  // everything else: the built-in policy
    }
    // POST and PATCH get `Idempotency-Key: "<uuid>"`, the same on every attempt, and are retried like a GET.
    configuration.retry?.idempotencyKeys = .automatic
    let client = try Client(transport: CurlTransport(), configuration: configuration)

    let charge = try Request(method: .post, url: "https://api.example.com/charges", body: HTTPBody(json))
    let response = try await client.send(charge)
    _ = response
}
