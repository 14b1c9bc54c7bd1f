import Switchyard
import SwitchyardAPI
import SwitchyardJSON

/// The walk of `yard pages`: loads pages until the list ends or a page keeps failing, printing
/// one JSON line per load and a summary line.
struct PageWalk {
    /// Pages to load at most.
    let maxPages: Int
    /// How many more times a failed page is asked for before giving up.
    let retryFailedPage: Int

    /// What the walk ended with.
    struct Summary {
        /// Whether it gave up on a failing page.
        var gaveUp: Bool
    }

    /// Walks the list from its first page.
    func run<Source: PageSource>(_ loader: PageLoader<Source, JSONValue>) async -> Summary {
        var loads = 0
        var pagesLoaded = 0
        var failuresInARow = 0
        var result = await loader.loadFirst()
        while true {
            loads += 1
            print(Self.line(for: result).description)
            switch result.outcome {
            case .succeeded:
                pagesLoaded += 1
                failuresInARow = 0
                guard result.hasNext, pagesLoaded < maxPages else { return await finish(loader, pagesLoaded, loads) }
            case .failed:
                failuresInARow += 1
                guard failuresInARow <= retryFailedPage else { return await finish(loader, pagesLoaded, loads) }
            case .noData, .cancelled, .skipped:
                return await finish(loader, pagesLoaded, loads)
            }
            // After a failed page this asks for the same page again: the loader rolled it back.
            result = await loader.loadNext()
        }
    }

    private func finish<Source: PageSource>(
        _ loader: PageLoader<Source, JSONValue>, _ pagesLoaded: Int, _ loads: Int
    ) async -> Summary {
        let state = await loader.state
        print(
            JSONValue.object([
                "done": .bool(true), "state": .string(state.name), "unique": .integer(Int64(state.items.count)),
                "pages_loaded": .integer(Int64(pagesLoaded)), "loads": .integer(Int64(loads))
            ]).description)
        if case .failed = state { return Summary(gaveUp: true) }
        return Summary(gaveUp: false)
    }

    /// `{"page","state","items","new","duplicates","has_next","error"}` for one load.
    static func line(for result: PageLoadResult) -> JSONValue {
        let error: JSONValue =
            result.error.map {
                .object(["kind": .string($0.kind.rawValue), "message": .string($0.message)])
            } ?? .null
        return .object([
            "page": .integer(Int64(result.page)), "state": .string(result.outcome.name),
            "items": .integer(Int64(result.itemCount)), "new": .integer(Int64(result.newItemCount)),
            "duplicates": .integer(Int64(result.duplicateCount)), "has_next": .bool(result.hasNext),
            "error": error
        ])
    }
}
