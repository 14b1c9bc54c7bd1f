import HTTPTypes
import Switchyard

/// One `GET` or `HEAD` on its way through the ``CacheInterceptor``: serving a stored response,
/// asking the network (conditionally when the stored one has validators), and storing the answer.
struct CacheExchange: Sendable {
    let cache: HTTPCache
    let request: Request
    let primary: CacheKey
    /// The request's own `Cache-Control`.
    let directives: CacheControl
    /// The app's freshness lifetime for this endpoint, if any.
    let ttl: Duration?
    let context: ExchangeContext
    let next: Next

    /// `stored` as the response, with an `Age` field, recorded as coming from `source`.
    func deliver(_ stored: CachedResponse, source: ResponseProvenance.Source, now: Double) -> Response {
        // Finite and at most ~31,000 years, so the integer conversions below cannot trap.
        let computed = stored.currentAge(now: now)
        let age = computed.isFinite ? min(max(0, computed), 1e12) : 0
        var head = HTTPResponse(status: HTTPResponse.Status(code: stored.status), headerFields: stored.headerFields)
        head.headerFields[.age] = String(Int(age.rounded(.down)))
        context.provenance = ResponseProvenance(source: source, age: .milliseconds(Int64((age * 1_000).rounded(.down))))
        let body = request.head.method == .head ? nil : HTTPBody(stored.body)
        return Response(head, body: body)
    }

    /// `stored` after the network failed: marked `stale`, or `cache` when it is still fresh.
    func fallBack(to stored: CachedResponse) -> Response {
        let now = cache.now()
        let isFresh = stored.isFresh(now: now, ttl: ttl, request: directives)
        return deliver(stored, source: isFresh ? .cache : .stale, now: now)
    }

    /// Asks the network, conditionally when `stored` has validators: a `304` refreshes and serves the
    /// stored response (`revalidated`); any other answer is returned, stored as it streams when allowed.
    /// - Parameters:
    ///   - stored: The stored response for this request, if any.
    ///   - timeout: How long to wait for the response head before failing with a timeout.
    func fetch(stored: (key: CacheKey, response: CachedResponse)?, timeout: Duration? = nil) async throws -> Response {
        var outgoing = request
        let validating = stored.flatMap { request.head.method == .get && $0.response.hasValidator ? $0 : nil }
        if let validating {
            let fields = validating.response.headerFields
            if let eTag = fields[.eTag] { outgoing.head.headerFields[.ifNoneMatch] = eTag }
            if let lastModified = fields[.lastModified] { outgoing.head.headerFields[.ifModifiedSince] = lastModified }
        }
        let requestTime = cache.now()
        let response = try await send(outgoing, timeout: timeout)
        let responseTime = cache.now()
        if let validating, response.head.status == .notModified {
            await response.body?.discard()
            var refreshed = validating.response
            refreshed.refresh(with: response.head.headerFields)
            refreshed.requestTime = requestTime
            refreshed.responseTime = responseTime
            if !CacheControl(response.head.headerFields).noStore {
                cache.store.store(.response(refreshed), for: validating.key)
            }
            return deliver(refreshed, source: .revalidated, now: responseTime)
        }
        context.provenance = .network
        guard request.head.method == .get, isStorable(response.head) else { return response }
        return storing(response, requestTime: requestTime, responseTime: responseTime)
    }

    /// Whether RFC 9111 §3 lets a private cache store this response to this request.
    private func isStorable(_ head: HTTPResponse) -> Bool {
        let code = head.status.code
        guard code >= 200, code != 206, code != 304 else { return false }
        let response = CacheControl(head.headerFields)
        guard !response.noStore else { return false }
        if request.head.headerFields[.authorization] != nil,
            !(response.isPublic || response.mustRevalidate || response.sharedMaxAge != nil)
        {
            return false
        }
        let explicit =
            ttl != nil || response.maxAge != nil || head.headerFields[.expires] != nil || response.isPublic
            || response.isPrivate
        return explicit || CachedResponse.heuristicallyCacheableStatuses.contains(code)
    }

    /// `response` with its body streaming into the store on its way to the caller; bodies known or
    /// found to exceed ``CacheConfiguration/maxEntryBytes`` are not stored.
    private func storing(_ response: Response, requestTime: Double, responseTime: Double) -> Response {
        let limit = cache.configuration.maxEntryBytes
        if case .known(let length)? = response.body?.length, length > Int64(limit) { return response }
        let fields = response.head.headerFields
        guard let key = cache.storageKey(for: request.head, responseFields: fields, primary: primary) else {
            return response
        }
        var stored = fields
        // Hop-by-hop framing is the transport's business, not the stored entry's.
        stored[.transferEncoding] = nil
        stored[.connection] = nil
        let entry = CachedResponse(
            status: response.head.status.code, headerFields: stored,
            requestTime: requestTime, responseTime: responseTime)
        guard let writer = cache.store.makeWriter(for: entry, key: key) else { return response }
        guard let body = response.body else {
            try? writer.commit()
            return response
        }
        var tapped = response
        tapped.body = body.tapped(by: CacheWritingTap(writer: writer, limit: limit))
        return tapped
    }

    /// Sends `request` down the chain, failing with a timeout when its head takes longer than `timeout`.
    private func send(_ request: Request, timeout: Duration?) async throws -> Response {
        guard let timeout else { return try await next(request) }
        let next = self.next
        return try await withThrowingTaskGroup(of: Response?.self) { group in
            group.addTask { try await next(request) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let response = first else {
                throw SwitchyardError.timedOut("The cache's network timeout (\(timeout)) passed before the response.")
            }
            return response
        }
    }
}
