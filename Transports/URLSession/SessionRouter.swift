import Foundation
import SwitchyardCore
import SwitchyardTransportKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's delegate: routes each task's callbacks to the ``URLSessionExchange`` it belongs to,
/// and answers URLSession's policy questions the way every Switchyard transport must.
///
/// - Redirects are never followed: the 3xx response is delivered as it is.
/// - Nothing is cached; authentication challenges get no credentials, so a 401 is returned as is.
/// - A streamed (single-use) request body is never sent twice: asked for a fresh copy of it,
///   the router refuses and fails the exchange.
///
/// Serves as the session delegate of sessions the transport owns and, on Apple platforms, as the
/// task delegate of tasks created on a session the app owns. Task identifiers are unique per
/// session, so one router serves exactly one session.
final class SessionRouter: NSObject, URLSessionDataDelegate, Sendable {
    private struct Route {
        let exchange: URLSessionExchange
        var startedAt: ContinuousClock.Instant
    }

    private let routes = Lock<[Int: Route]>([:])

    /// Routes the callbacks of `task` to `exchange` from now on.
    func register(_ exchange: URLSessionExchange, for task: URLSessionTask) {
        let route = Route(exchange: exchange, startedAt: .now)
        routes.withLock { $0[task.taskIdentifier] = route }
    }

    private func exchange(for task: URLSessionTask) -> URLSessionExchange? {
        routes.withLock { $0[task.taskIdentifier]?.exchange }
    }

    // MARK: - Data

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
        if let http = response as? HTTPURLResponse {
            exchange.didReceive(http)
        } else {
            exchange.fail(TransportFailure.notHTTP(host: exchange.host, detail: "the answer is not an HTTP response"))
        }
        // An exchange that failed on its head (e.g. a declared length over the limit) must not read the body.
        completionHandler(exchange.isFinished ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.didReceive(data, task: dataTask)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task) else { return }
        exchange.noteProgress()  // an upload in progress is not idle
        // URLSession reports bytes as the connection takes them, also when corelibs sends a body
        // it collected first: the wire's count for a request's observer.
        exchange.request.options.sentBytesObserver?.sent(totalBytesSent)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let route = routes.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        route?.exchange.didComplete(error: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let route = routes.withLock({ $0[task.taskIdentifier] }) else { return }
        route.exchange.record(metrics, taskStartedAt: route.startedAt)
    }

    // MARK: - Policy

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, willCacheResponse proposedResponse: CachedURLResponse,
        completionHandler: @escaping @Sendable (CachedURLResponse?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping @Sendable (InputStream?) -> Void
    ) {
        completionHandler(nil)
        guard let exchange = exchange(for: task) else { return }
        // FoundationNetworking asks for the body again when the connection it reused closed without
        // a response (libcurl then resends on a new one): the server may have processed the request,
        // so it is not resent; the retry policy decides. Failing the exchange cancels the task, and
        // `URLSessionTask.cancel()` waits for the session's work queue, which on Linux is the queue
        // running this callback: it must happen after the callback returns, or the process traps
        // (dispatch_sync on the current queue; found by the soak, issue 15).
        let failure = TransportFailure.closedWithoutResponse(
            host: exchange.host, detail: "the request was not sent again on a new connection, since the server may have processed it")
        DispatchQueue.global().async { exchange.fail(failure) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // corelibs raises HTTP authentication challenges only after the whole 401 response has been
        // delivered, and never completes the task if the challenge is handled by default without a
        // credential. The body is complete at this point: end the exchange with it, then cancel.
        // (corelibs has no server-trust challenges: TLS is verified by libcurl.)
        if let exchange = exchange(for: task) {
            exchange.didComplete(error: nil)
            // Cancelling makes FoundationNetworking call `task.cancel()`, which waits for the session's
            // work queue: the queue running this callback (`InlineDelegateQueue`). Not from here.
            DispatchQueue.global().async { completionHandler(.cancelAuthenticationChallenge, nil) }
            return
        }
        #endif
        completionHandler(.performDefaultHandling, nil)
    }
}
