// A file that imports both modules and picks which `HTTPBody` the plain name means with a scoped
// import (`import class OpenAPIRuntime.HTTPBody`), as SwitchyardClientTransport's documentation
// suggests for files that mostly deal with generated code.
import Foundation
import OpenAPIRuntime
import Switchyard
import SwitchyardOpenAPI
import SwitchyardTestServer
import SwitchyardTestSupport
import Testing

import class OpenAPIRuntime.HTTPBody

@Suite(.timeLimit(.minutes(2))) struct ScopedImportTests {
    @Test func aScopedImportPicksOpenAPIsBody() async throws {
        let body: HTTPBody = HTTPBody("scoped")
        #expect(body.iterationBehavior == .multiple)
        try await withGeneratedClient(.curl) { api, _, _ in
            guard case .ok(let ok) = try await api.uploadBytes(body: .binary(body)), case .json(let echo) = ok.body else {
                Issue.record("uploadBytes did not answer 200")
                return
            }
            #expect(echo.body_length == 6)
            // Switchyard's still goes by its qualified name.
            let other = Switchyard.HTTPBody("x")
            #expect(other.replayability == .replayable)
        }
    }
}
