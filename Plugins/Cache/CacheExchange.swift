import HTTPTypes
import SwitchyardCore

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
    /// The single byte range the request asks for, if it has a `Range` field (`GET` only).
    let range: ByteRangeRequest?
    /// Whether responses to this request may be stored: not with the request's `no-store`, nor
    /// with `RequestOptions.cacheStoresResponse` off.
    let mayStore: Bool
    let context: ExchangeContext
    let next: Next

    /// What the network answered.
    enum NetworkAnswer {
        /// `304 Not Modified`: the stored response, refreshed with the 304's fields.
        case notModified(CachedResponse, at: Double)
        /// Any other response; `isStored` when its body streams into the store.
        case response(Response, isStored: Bool)
    }

    /// `stored` as the response, with an `Age` field, recorded as coming from `source`; for a range
    /// request, the `206` of the range's bytes when `stored` holds them all.
    func deliver(_ stored: CachedResponse, source: ResponseProvenance.Source, now: Double) -> Response {
        // Finite and at most ~31,000 years, so the integer conversions below cannot trap.
        let computed = stored.currentAge(now: now)
        let age = computed.isFinite ? min(max(0, computed), 1e12) : 0
        var head = HTTPResponse(status: HTTPResponse.Status(code: stored.status), headerFields: stored.headerFields)
        head.headerFields[.age] = String(Int(age.rounded(.down)))
        context.provenance = ResponseProvenance(source: source, age: .milliseconds(Int64((age * 1_000).rounded(.down))))
        if let streamed = stored.streamedBody {
            return Response(head, body: request.head.method == .head ? nil : streamed.open())
        }
        if let range, let slice = stored.slice(for: range), let span = stored.storedSpan {
            let start = slice.range.lowerBound - span.range.lowerBound
            head.status = .partialContent
            head.headerFields[.contentRange] = ContentRange.value(slice.range, length: slice.length)
            head.headerFields[.contentLength] = String(slice.range.count)
            return Response(head, body: HTTPBody(stored.body[start..<(start + slice.range.count)]))
        }
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
        switch try await exchangeWithNetwork(stored: stored, timeout: timeout) {
        case .notModified(let refreshed, let responseTime):
            return deliver(refreshed, source: .revalidated, now: responseTime)
        case .response(let response, _):
            context.provenance = .network
            return response
        }
    }

    /// Revalidates `stored` off the caller's path (RFC 5861 §3), unless a revalidation of its key is
    /// already running: a `304` refreshes the stored entry, a storable response replaces it (its
    /// body read to the end, up to ``CacheConfiguration/maxEntryBytes``), and a failure leaves it as
    /// it is for the next request to try again.
    ///
    /// The revalidation is an exchange of its own below the cache (`Next.startingExchange`), in a
    /// detached task: the caller's exchange is not touched (its attempt, timings, provenance and
    /// plugin values stay what they were when it was served, and no event below the cache carries
    /// its id), the caller's cancellation and task-local values (a trace span, an activity
    /// observer) do not reach it, and its deadline is its own: as long from its start as the
    /// caller's exchange had, or ``HTTPCache/backgroundRevalidationTimeout`` when it had none.
    func revalidateInBackground(_ stored: (key: CacheKey, response: CachedResponse)) {
        guard cache.beginBackgroundRevalidation(of: stored.key) else { return }
        var options = request.options
        options.deadline = nil
        options.timeout = context.deadline.map { context.startedAt.duration(to: $0) } ?? HTTPCache.backgroundRevalidationTimeout
        var backgroundRequest = request
        backgroundRequest.options = options
        let next = self.next.startingExchange(options: options)
        let background = CacheExchange(
            cache: cache, request: backgroundRequest, primary: primary, directives: directives, ttl: ttl, range: range,
            mayStore: mayStore, context: next.context, next: next)
        let cache = self.cache
        Task.detached {
            await background.revalidate(stored)
            cache.endBackgroundRevalidation(of: stored.key)
        }
    }

    private func revalidate(_ stored: (key: CacheKey, response: CachedResponse)) async {
        do {
            guard case .response(let response, let isStored) = try await exchangeWithNetwork(stored: stored, timeout: nil),
                let body = response.body
            else { return }
            guard isStored else { return await body.discard() }
            // Reading the body is what streams it into the store; past the limit the entry is abandoned.
            let limit = cache.configuration.maxEntryBytes
            var received = 0
            for try await chunk in body {
                received += chunk.count
                if received > limit { break }
            }
        } catch {
            // The stale entry stays; the next request within the window starts another revalidation.
        }
    }

    /// The network's answer to the request, conditional when `stored` has validators; a `304`
    /// refreshes the stored entry and a storable response streams into the store, when allowed.
    private func exchangeWithNetwork(
        stored: (key: CacheKey, response: CachedResponse)?, timeout: Duration?
    ) async throws -> NetworkAnswer {
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
            if mayStore, !CacheControl(response.head.headerFields).noStore {
                var entry = refreshed
                entry.headerFields = fieldsToStore(refreshed.headerFields, directives: refreshed.cacheControl)
                do {
                    try await cache.store.store(.response(entry), for: validating.key)
                } catch {
                    context.reportCacheStoreFailure("write", error, request: request)
                }
            }
            return .notModified(refreshed, at: responseTime)
        }
        guard mayStore, request.head.method == .get else { return .response(response, isStored: false) }
        let directives = CacheControl(response.head.headerFields)
        guard isStorable(response.head, directives: directives) else { return .response(response, isStored: false) }
        return await storing(response, directives: directives, requestTime: requestTime, responseTime: responseTime)
    }

    /// Whether RFC 9111 §3 lets a private cache store this response to this request. To a range
    /// request only a `206` (stored as a part) or a complete `200` is stored; a `206` to any other
    /// request never is.
    private func isStorable(_ head: HTTPResponse, directives response: CacheControl) -> Bool {
        let code = head.status.code
        guard code >= 200, code != 304, !response.noStore else { return false }
        if range == nil {
            guard code != 206 else { return false }
        } else {
            guard code == 200 || code == 206 else { return false }
        }
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

    /// The header fields of a response as they are stored: without hop-by-hop framing and without
    /// the fields its `no-cache="…"` names (RFC 9111 §5.2.2.4), then as
    /// ``CacheConfiguration/willStore`` leaves them.
    private func fieldsToStore(_ fields: HTTPFields, directives: CacheControl) -> HTTPFields {
        var stored = fields
        // Hop-by-hop framing is the transport's business, not the stored entry's.
        stored[.transferEncoding] = nil
        stored[.connection] = nil
        for name in directives.noCacheFields {
            if let fieldName = HTTPField.Name(name) { stored[fieldName] = nil }
        }
        cache.configuration.willStore?(request.head, &stored)
        return stored
    }

    /// `response` with its body streaming into the store on its way to the caller; bodies known or
    /// found to exceed ``CacheConfiguration/maxEntryBytes`` are not stored. A `206` is stored as a
    /// part, combined with the part already stored when both belong to one representation.
    private func storing(
        _ response: Response, directives: CacheControl, requestTime: Double, responseTime: Double
    ) async -> NetworkAnswer {
        let limit = cache.configuration.maxEntryBytes
        if case .known(let length)? = response.body?.length, length > Int64(limit) {
            return .response(response, isStored: false)
        }
        let fields = response.head.headerFields
        let storageKey: CacheKey?
        do {
            storageKey = try await cache.storageKey(for: request.head, responseFields: fields, primary: primary)
        } catch {
            context.reportCacheStoreFailure("write", error, request: request)
            return .response(response, isStored: false)
        }
        guard let key = storageKey else { return .response(response, isStored: false) }
        let entry = CachedResponse(
            status: response.head.status.code, headerFields: fieldsToStore(fields, directives: directives),
            requestTime: requestTime, responseTime: responseTime)
        let writer: (any CacheEntryWriter)?
        do {
            writer =
                entry.status == 206
                ? PartialEntryWriter(cache: cache, key: key, part: entry, limit: limit)
                : try await cache.store.makeWriter(for: entry, key: key)
        } catch {
            context.reportCacheStoreFailure("write", error, request: request)
            return .response(response, isStored: false)
        }
        guard let writer else { return .response(response, isStored: false) }
        guard let body = response.body else {
            do {
                try await writer.commit()
            } catch {
                context.reportCacheStoreFailure("write", error, request: request)
            }
            return .response(response, isStored: true)
        }
        var tapped = response
        tapped.body = body.tapped(by: CacheWritingTap(writer: writer, limit: limit, context: context, request: request))
        return .response(tapped, isStored: true)
    }

    /// Sends `request` down the chain, failing with a timeout when its head takes longer than `timeout`.
    ///
    /// At the timeout it returns at once: the network's task is cancelled, not awaited, so the
    /// stored response can be served before the exchange's deadline however long the transport
    /// takes to wind down (a head that still comes has its body discarded). Cancelling the caller
    /// cancels the network's task.
    private func send(_ request: Request, timeout: Duration?) async throws -> Response {
        guard let timeout else { return try await next(request) }
        let next = self.next
        let outcome = FirstOutcome()
        let network = Task {
            do {
                let response = try await next(request)
                if !outcome.resolve(.success(response)) { await response.body?.discard() }
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        let end = ContinuousClock.now.advanced(by: timeout)
        let timer = Task {
            // Cancelled once the network answered or the caller is cancelled: then it resolves nothing.
            guard (try? await sleepReleasingTimerOnCancel(until: end)) != nil else { return }
            outcome.resolve(
                .failure(SwitchyardError.timedOut("The cache's network timeout (\(timeout)) passed before the response.")))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            do {
                return try await outcome.value
            } catch {
                network.cancel()
                throw error
            }
        } onCancel: {
            network.cancel()
            timer.cancel()
        }
    }
}

/// The first of the network's outcome and the cache's timeout, whichever comes first; the later
/// one is dropped (and its response's body discarded by the caller of ``resolve(_:)``).
private final class FirstOutcome: Sendable {
    private struct State {
        var result: Result<Response, any Error>?
        var waiter: CheckedContinuation<Response, any Error>?
        var isResolved = false
    }

    private let state = Lock(State())

    /// Records `result` unless an outcome was recorded before.
    /// - Parameter result: The outcome.
    /// - Returns: Whether it was recorded (`false`: it came too late).
    @discardableResult
    func resolve(_ result: Result<Response, any Error>) -> Bool {
        let (recorded, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Response, any Error>?) in
            guard !state.isResolved else { return (false, nil) }
            state.isResolved = true
            guard let waiter = state.waiter else {
                state.result = result
                return (true, nil)
            }
            state.waiter = nil
            return (true, waiter)
        }
        waiter?.resume(with: result)
        return recorded
    }

    /// The first outcome, once there is one.
    var value: Response {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<Response, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }
    }
}
