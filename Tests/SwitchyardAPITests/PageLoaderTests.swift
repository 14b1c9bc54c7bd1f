import Switchyard
import SwitchyardTestSupport
import Testing

@testable import SwitchyardAPI

/// The page loader's state machine over in-memory sources.
@Suite(.timeLimit(.minutes(2))) struct PageLoaderTests {
    /// Loads pages until the list says there is no next one; returns every result.
    private func walk<S: PageSource, ID>(_ loader: PageLoader<S, ID>) async -> [PageLoadResult] {
        var results = [await loader.loadFirst()]
        while await loader.hasNext, results.count < 100 { results.append(await loader.loadNext()) }
        return results
    }

    @Test(arguments: [HasNextRule.flag, .total, .shortPage()])
    func overlappingPagesAreDeduplicatedInFirstSeenOrder(rule: HasNextRule) async {
        let loader = PageLoader(
            source: SamplePages(count: 95, pageSize: 10, insertedPerPage: 2), identity: \.id,
            rule: rule, pageSize: 10)
        let results = await walk(loader)
        #expect(results.count == 12)
        #expect(results.allSatisfy { $0.outcome.name == "succeeded" })
        #expect(results.map(\.duplicateCount) == [0] + Array(repeating: 2, count: 11))
        #expect(results.map(\.newItemCount).reduce(0, +) == 95)
        #expect(await loader.items.map(\.id) == Array(1...95))
        #expect(await loader.isLastPage)
        #expect(await loader.isFirstPage)
        #expect(await loader.loadedPages == 1...12)
    }

    @Test func theServersPageSizeIsUsedForOffsetsAndShortPages() async {
        // The loader asks for no size; the source decides 10 and reports it.
        let loader = PageLoader(source: SamplePages(count: 95, pageSize: 10), identity: \.id, rule: .shortPage())
        let results = await walk(loader)
        #expect(results.count == 10)
        #expect(results.last?.itemCount == 5)
        #expect(await loader.items.count == 95)
    }

    @Test func aFailedNextPageIsRolledBackAndRetried() async {
        let source = ScriptedPageSource { request, previous throws(SwitchyardError) in
            if request.index == 3, previous == 0 { throw .transportFailed("page 3 is down") }
            return Page(items: Array((request.index - 1) * 10 + 1...request.index * 10), hasNext: request.index < 5)
        }
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        await loader.loadNext()
        let failed = await loader.loadNext()
        #expect(failed.page == 3)
        #expect(failed.error?.message == "page 3 is down")
        guard case .failed(_, let kept) = await loader.state else {
            Issue.record("expected failed, got \(await loader.state.name)")
            return
        }
        #expect(kept == Array(1...20))
        #expect(await loader.loadedPages == 1...2)
        let retried = await loader.loadNext()
        #expect(retried.page == 3)
        #expect(retried.outcome.name == "succeeded")
        #expect(source.pagesAsked == [1, 2, 3, 3])
        #expect(await loader.items == Array(1...30))
    }

    @Test func anEmptyNextPageIsNoDataAndAskedForAgain() async {
        let source = ScriptedPageSource { request, previous in
            if request.index == 2, previous == 0 { return Page(items: [], hasNext: false) }
            return Page(items: Array((request.index - 1) * 10 + 1...request.index * 10), hasNext: request.index < 3)
        }
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        let empty = await loader.loadNext()
        #expect(empty.outcome.name == "noData")
        #expect(empty.page == 2)
        #expect(await loader.state.name == "succeeded")
        #expect(await loader.loadedPages == 1...1)
        let again = await loader.loadNext()
        #expect(again.page == 2)
        #expect(again.outcome.name == "succeeded")
        #expect(await loader.items == Array(1...20))
    }

    @Test func anEmptyFirstPageIsTheListsNoData() async {
        let loader = PageLoader(source: ScriptedPageSource.numbers(count: 0, pageSize: 10), identity: { $0 }, rule: .flag)
        let result = await loader.loadFirst()
        #expect(result.outcome.name == "noData")
        #expect(await loader.state.name == "noData")
        #expect(await loader.hasNext == false)
        #expect(await loader.loadedPages == nil)
    }

    @Test func concurrentNextCallsShareOneLoad() async {
        let source = ScriptedPageSource.numbers(count: 50, pageSize: 10, holding: [2])
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        async let first = loader.loadNext()
        #expect(await eventually { source.pagesAsked == [1, 2] })
        async let second = loader.loadNext()
        #expect(await eventually { await loader.joinedCalls == 1 })
        source.release(page: 2)
        let (a, b) = await (first, second)
        #expect(a.page == 2 && b.page == 2)
        #expect(a.outcome.name == "succeeded" && b.outcome.name == "succeeded")
        #expect(source.pagesAsked == [1, 2])
        #expect(await loader.items == Array(1...20))
    }

    @Test func refreshCancelsANextPageInFlightAndReplacesTheItems() async {
        let source = ScriptedPageSource(holding: [2]) { request, previous in
            // The second first page has two new items on top.
            let top = request.index == 1 && previous > 0 ? [101, 102] : []
            return Page(items: top + Array((request.index - 1) * 10 + 1...request.index * 10), hasNext: true)
        }
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        async let next = loader.loadNext()
        #expect(await eventually { source.pagesAsked == [1, 2] })
        let refreshed = await loader.refresh()
        #expect(refreshed.kind == .refresh)
        #expect(refreshed.outcome.name == "succeeded")
        #expect(await next.outcome.name == "cancelled")
        #expect(source.cancelledPages == [2])
        #expect(await loader.items == [101, 102] + Array(1...10))
        #expect(await loader.loadedPages == 1...1)
        #expect(await loader.state.name == "succeeded")
    }

    @Test func aFailedRefreshKeepsTheItems() async {
        let source = ScriptedPageSource { request, previous throws(SwitchyardError) in
            if request.index == 1, previous > 0 { throw .timedOut() }
            return Page(items: Array((request.index - 1) * 10 + 1...request.index * 10), hasNext: true)
        }
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        await loader.loadNext()
        let refresh = await loader.refresh()
        #expect(refresh.error?.kind == .timeout)
        guard case .failed(let error, let items) = await loader.state else {
            Issue.record("expected failed")
            return
        }
        #expect(error.kind == .timeout)
        #expect(items == Array(1...20))
        #expect(await loader.items == Array(1...20))
        #expect(await loader.loadNext().page == 3)
    }

    @Test func cancelEndsTheLoadAndKeepsTheList() async {
        let source = ScriptedPageSource.numbers(count: 50, pageSize: 10, holding: [2])
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        async let next = loader.loadNext()
        #expect(await eventually { source.pagesAsked == [1, 2] })
        await loader.cancel()
        #expect(await next.outcome.name == "cancelled")
        guard case .cancelled(let items) = await loader.state else {
            Issue.record("expected cancelled, got \(await loader.state.name)")
            return
        }
        #expect(items == Array(1...10))
        #expect(await loader.loadNext().page == 2)
    }

    @Test func aNextPageDuringARefreshIsSkipped() async {
        let held = ScriptedPageSource.numbers(count: 50, pageSize: 10, holding: [1])
        let loader = PageLoader(source: held, identity: { $0 }, rule: .flag, pageSize: 10)
        async let first = loader.loadFirst()
        #expect(await eventually { held.pagesAsked == [1] })
        let next = await loader.loadNext()
        guard case .skipped(.busy) = next.outcome else {
            Issue.record("expected skipped(busy), got \(next.outcome.name)")
            return
        }
        held.release(page: 1)
        #expect(await first.outcome.name == "succeeded")
    }

    @Test func jumpsToAPageAndLoadsThePreviousOnes() async {
        let loader = PageLoader(source: SamplePages(count: 95, pageSize: 10), identity: \.id, rule: .flag, pageSize: 10)
        await loader.loadFirst()
        let jump = await loader.loadPage(5)
        #expect(jump.kind == .page(5))
        #expect(await loader.items.map(\.id) == Array(41...50))
        #expect(await loader.isFirstPage == false)
        let previous = await loader.loadPrevious()
        #expect(previous.page == 4)
        #expect(await loader.items.map(\.id) == Array(31...50))
        for _ in 0..<3 { await loader.loadPrevious() }
        #expect(await loader.isFirstPage)
        #expect(await loader.items.map(\.id) == Array(1...50))
        guard case .skipped(.noPreviousPage) = await loader.loadPrevious().outcome else {
            Issue.record("expected skipped(noPreviousPage)")
            return
        }
        #expect(await loader.loadNext().page == 6)
        #expect(await loader.loadedPages == 1...6)
    }

    @Test func statesFollowTheLoads() async {
        let loader = PageLoader(
            source: ScriptedPageSource.numbers(count: 15, pageSize: 10), identity: { $0 },
            rule: .flag, pageSize: 10)
        let states = await loader.states()
        await loader.loadFirst()
        await loader.loadNext()
        var seen: [String] = []
        for await state in states {
            switch state {
            case .running(let kind, let items): seen.append("running \(kind) \(items.count)")
            case .succeeded(let items, let hasNext): seen.append("succeeded \(items.count) \(hasNext)")
            default: seen.append(state.name)
            }
            if seen.count == 5 { break }
        }
        #expect(seen == ["notStarted", "running first 0", "succeeded 10 true", "running next 10", "succeeded 15 false"])
    }

    @Test func pinnedItemsComeFirstAndAreNotRepeated() async {
        let pinned = ScriptedPageSource { _, _ in Page(items: [7, 500]) }
        let pages = ScriptedPageSource.numbers(count: 25, pageSize: 10)
        let loader = PageLoader(
            source: StitchedPageSource(pinned: pinned, pages: pages), identity: { $0 },
            rule: .flag, pageSize: 10)
        let first = await loader.loadFirst()
        #expect(first.itemCount == 12)
        #expect(first.duplicateCount == 1)
        await loader.loadNext()
        await loader.loadNext()
        #expect(await loader.items == [7, 500] + Array(1...6) + Array(8...25))
        #expect(pinned.pagesAsked == [1])
        #expect(pages.pagesAsked == [1, 2, 3])
        await loader.refresh()
        #expect(pinned.pagesAsked == [1, 1])
        #expect(await loader.items == [7, 500] + Array(1...6) + Array(8...10))
    }

    @Test func samplePagesInsertItemsOnTopBetweenPages() async throws {
        let source = SamplePages(count: 30, pageSize: 10, insertedPerPage: 2)
        let first = try await source.loadPage(PageRequest(index: 1, offset: 0, size: 10))
        let second = try await source.loadPage(PageRequest(index: 2, offset: 10, size: 10))
        #expect(first.items.map(\.id) == Array(1...10))
        #expect(second.items.map(\.id) == Array(9...18))
        #expect(second.total == 32)
        let top = try await source.loadPage(PageRequest(index: 1, offset: 0, size: 3))
        #expect(top.items.map(\.title) == ["New item 32", "New item 31", "Item 1"])
    }

    @Test func offsetsCountDuplicatesWhenThePageSizeIsUnknown() async {
        let source = ScriptedPageSource { request, _ in
            // Two items were inserted on top before each later page, so each repeats two.
            let start = request.offset + 1 - 2 * (request.offset / 10)
            return Page(items: Array(start...start + 9), hasNext: request.offset < 20)
        }
        let loader = PageLoader(source: source, identity: { $0 }, rule: .flag)
        let results = await walk(loader)
        #expect(results.map(\.duplicateCount) == [0, 2, 2])
        #expect(source.requests.map(\.offset) == [0, 10, 20])
        #expect(source.requests.map(\.size) == [nil, nil, nil])
        #expect(await loader.items == Array(1...26))
    }

    @MainActor @Test func theModelMirrorsTheLoadersStateOnTheMainActor() async {
        let loader = PageLoader(source: SamplePages(count: 15, pageSize: 10), identity: \.id, rule: .flag, pageSize: 10)
        let model = PageListModel(loader: loader)
        let observing = Task { await model.observe() }
        await loader.loadFirst()
        await loader.loadNext()
        #expect(await eventually { model.state.items.count == 15 })
        guard case .succeeded(let items, let hasNext) = model.state else {
            Issue.record("expected loaded, got \(model.state.name)")
            return
        }
        #expect(items.map(\.id) == Array(1...15))
        #expect(hasNext == false)
        observing.cancel()
        await observing.value
    }
}
