import Foundation
import HTTPTypes
import SwitchyardCore

/// Adds the jar's cookies to each attempt and keeps the cookies its response sets. An attempt link,
/// so every redirect hop sends the cookies set by the hop before it.
struct CookieInterceptor: Interceptor {
    let jar: CookieJar

    nonisolated(nonsending) func intercept(_ request: Request, context: ExchangeContext, next: Next) async throws -> Response {
        var request = request
        let now = Date()
        do {
            if let field = try jar.cookieField(for: request.head, now: now) {
                // One `Cookie` field (RFC 6265bis §5.8.3): the app's own cookies first, then the jar's. The
                // fields' subscript would split a `Cookie` value into HTTP/2 crumbs, so the field is built whole.
                let own = request.head.headerFields[.cookie]
                request.head.headerFields[.cookie] = nil
                request.head.headerFields.append(HTTPField(name: .cookie, value: own.map { "\($0); \(field)" } ?? field))
            }
        } catch {
            context.publish(.plugin(CookieStoreFailed(operation: "read", message: "\(error)")), request: request)
        }
        let response = try await next(request)
        do {
            try jar.store(response.head.headerFields, from: request.head, now: now)
        } catch {
            context.publish(.plugin(CookieStoreFailed(operation: "write", message: "\(error)")), request: request)
        }
        return response
    }
}
