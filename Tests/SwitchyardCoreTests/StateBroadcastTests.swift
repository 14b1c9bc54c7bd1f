import SwitchyardTestSupport
import Testing

@testable import Switchyard
@testable import SwitchyardCore

/// ``StateBroadcast``: what subscribers see, when their streams end, and that they are removed.
@Suite struct StateBroadcastTests {
    /// Collects a stream to its end.
    private static func collect(_ stream: AsyncStream<Int>) async -> [Int] {
        var values: [Int] = []
        for await value in stream { values.append(value) }
        return values
    }

    @Test func aLateSubscriberStartsWithTheCurrentValue() async {
        let broadcast = StateBroadcast(0)
        broadcast.publish(1)
        broadcast.publish(2)
        var late = broadcast.subscribe().makeAsyncIterator()
        #expect(await late.next() == 2)
        broadcast.publish(3)
        #expect(await late.next() == 3)
        #expect(broadcast.current == 3)
    }

    @Test func everySubscriberSeesTheSameSequence() async {
        let broadcast = StateBroadcast(0)
        let first = Task { await Self.collect(broadcast.subscribe()) }
        let second = Task { await Self.collect(broadcast.subscribe()) }
        let third = broadcast.subscribe()
        #expect(await eventually { broadcast.subscriberCount == 3 })
        for value in 1...50 { broadcast.publish(value) }
        broadcast.finish(with: 51)
        let expected = Array(0...51)
        #expect(await first.value == expected)
        #expect(await second.value == expected)
        #expect(await Self.collect(third) == expected)
    }

    @Test func finishingEndsEveryStreamAndFreezesTheValue() async {
        let broadcast = StateBroadcast(0)
        let streams = (0..<3).map { _ in broadcast.subscribe() }
        let waiter = Task { await broadcast.finalState() }
        broadcast.publish(1)
        #expect(broadcast.finish(with: 2))
        for stream in streams { #expect(await Self.collect(stream) == [0, 1, 2]) }
        #expect(await waiter.value == 2)
        #expect(broadcast.isFinished)
        #expect(broadcast.subscriberCount == 0)
        // Once finished: nothing more is published, and a new subscriber gets the final value and an ended stream.
        #expect(!broadcast.publish(3))
        #expect(!broadcast.finish(with: 4))
        #expect(broadcast.current == 2)
        #expect(await Self.collect(broadcast.subscribe()) == [2])
        #expect(await broadcast.finalState() == 2)
    }

    @Test func aCancelledSubscriberIsRemoved() async {
        let broadcast = StateBroadcast(0)
        let kept = broadcast.subscribe()
        let cancelled = Task {
            for await _ in broadcast.subscribe() {}
        }
        #expect(await eventually { broadcast.subscriberCount == 2 })
        cancelled.cancel()
        await cancelled.value
        #expect(await eventually { broadcast.subscriberCount == 1 })
        // A stream dropped without being iterated goes too.
        _ = broadcast.subscribe()
        #expect(await eventually { broadcast.subscriberCount == 1 })
        broadcast.finish(with: 1)
        #expect(await Self.collect(kept) == [0, 1])
    }

    @Test func releasingTheBroadcastEndsItsStreams() async {
        var broadcast: StateBroadcast<Int>? = StateBroadcast(0)
        let stream = broadcast!.subscribe()
        broadcast?.publish(1)
        broadcast = nil
        #expect(await Self.collect(stream) == [0, 1])
    }

    @Test func aStatusBroadcastKeepsTheLatestValueSkipsRepeatsAndCountsSubscribers() async {
        let counts = Lock<[Int]>([])
        let broadcast = StateBroadcast(0, keeping: .latest) { count in counts.withLock { $0.append(count) } }
        let first = broadcast.subscribe()
        var second: AsyncStream<Int>? = broadcast.subscribe()
        #expect(!broadcast.publishIfChanged(0))
        #expect(broadcast.publishIfChanged(1))
        #expect(broadcast.publishIfChanged(2))
        second = nil  // dropped unread: removed, and the count says so
        #expect(await eventually { counts.withLock { $0 } == [1, 2, 1] })
        #expect(second == nil)
        broadcast.finish(with: 3)
        // The stream kept only the newest value while nobody read it.
        #expect(await Self.collect(first) == [3])
        #expect(counts.withLock { $0 } == [1, 2, 1, 0])
    }
}
