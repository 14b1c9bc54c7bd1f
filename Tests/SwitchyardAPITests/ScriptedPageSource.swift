import Switchyard
import SwitchyardAPI

/// A page source a test drives: it records every request, answers through `answer` (given the
/// request and how many times that page was asked for before), and holds the pages in `held` on
/// their first request until ``release(page:)`` or until the load is cancelled.
final class ScriptedPageSource: PageSource {
    typealias Item = Int
    typealias Answer = @Sendable (PageRequest, _ previousRequests: Int) throws(SwitchyardError) -> Page<Int>

    private struct State {
        var requests: [PageRequest] = []
        var held: Set<Int>
        var gates: [Int: AsyncStream<Void>.Continuation] = [:]
        var cancelled: [Int] = []
    }

    private let state: Lock<State>
    private let answer: Answer

    init(holding held: Set<Int> = [], answer: @escaping Answer) {
        state = Lock(State(held: held))
        self.answer = answer
    }

    /// `pageSize` items per page: page `p` holds `(p−1)·size+1 … p·size`, up to `count`.
    static func numbers(count: Int, pageSize: Int, holding held: Set<Int> = []) -> ScriptedPageSource {
        ScriptedPageSource(holding: held) { request, _ in
            let start = (request.index - 1) * pageSize
            let end = min(start + pageSize, count)
            return Page(items: start < end ? Array(start + 1...end) : [], hasNext: end < count)
        }
    }

    func loadPage(_ request: PageRequest) async throws(SwitchyardError) -> Page<Int> {
        let (previous, gate) = state.withLock { state in
            let previous = state.requests.filter { $0.index == request.index }.count
            state.requests.append(request)
            guard state.held.remove(request.index) != nil else { return (previous, AsyncStream<Void>?.none) }
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            state.gates[request.index] = continuation
            return (previous, stream)
        }
        if let gate {
            var iterator = gate.makeAsyncIterator()
            _ = await iterator.next()  // returns on release, or at once when the task is cancelled
            if Task.isCancelled {
                state.withLock { $0.cancelled.append(request.index) }
                throw .cancelled
            }
        }
        return try answer(request, previous)
    }

    /// Every request so far, in order.
    var requests: [PageRequest] { state.withLock { $0.requests } }

    /// The page indices asked for, in order.
    var pagesAsked: [Int] { requests.map(\.index) }

    /// The held pages whose load was cancelled while held.
    var cancelledPages: [Int] { state.withLock { $0.cancelled } }

    /// Lets a held page's load continue.
    func release(page: Int) {
        let gate = state.withLock { $0.gates.removeValue(forKey: page) }
        gate?.yield()
        gate?.finish()
    }
}
