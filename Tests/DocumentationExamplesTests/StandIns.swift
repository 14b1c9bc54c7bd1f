import Foundation
import Switchyard
import SwitchyardAuth

// Names the documentation's examples use without defining them: the app around the snippet.
// Defined here, not in the README, so the snippets stay as short as the prose wants them.

/// The signing secret of the README's chain example.
let secret = "documentation-example-secret"

/// The app's banner, shown by the README's pop-up loop.
func showBanner(_ message: String) async {}

/// The app's offline banner, shown by the README's cache example.
func showBanner(age: Duration?) {}

/// The app's interceptors, in the README's "Replace your framework" example.
let chain: [any Interceptor] = [ClosureInterceptor(name: "app") { request, _, next in try await next(request) }]

/// A progress bar of the README's download example.
@MainActor final class ProgressBar {
    var fraction = 0.0
}

/// A spinner of the README's traffic example.
@MainActor final class Spinner {
    var isHidden = true
}

/// The app's session in the README's token-refresh example.
actor ExampleSession: CredentialProvider {
    private var credential = BearerCredential(token: "token", identity: "user-42")

    func current() async throws -> BearerCredential { credential }

    func refresh(stale: BearerCredential) async throws -> BearerCredential {
        credential = BearerCredential(token: "refreshed", identity: "user-42")
        return credential
    }
}
