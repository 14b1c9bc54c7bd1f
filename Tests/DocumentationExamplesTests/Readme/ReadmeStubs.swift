import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCurl
import SwitchyardTesting

// README.md, "Stubs, recordings and replays": compiled.
func readmeStubsRecordingsReplays() throws {
    // A route table: build the screen before the endpoint exists, or make an endpoint fail on purpose.
    let api = RoutedStubTransport()
    api.on(.get, "/users/*", reply: .text(#"{"id": 42, "name": "Ada"}"#))
    let feed = api.on(.get, "/feed", replies: [.status(.serviceUnavailable), .text("[]")])  // flaky, then fine
    api.on("/slow/**", reply: .text("done").delayed(by: .seconds(3)))  // honours deadlines
    let client = Client(transport: api)
    // feed.callCount tells how often the screen asked.

    // Record real exchanges once (one JSON file each, Authorization/Cookie redacted) …
    let recorder = try RecordingTransport(wrapping: CurlTransport(), directory: URL(fileURLWithPath: "Fixtures/feed"))
    // … and serve them later, offline and in CI.
    let replay = try ReplayingTransport(directory: URL(fileURLWithPath: "Fixtures/feed"))
    _ = (feed, client, recorder, replay)
}
