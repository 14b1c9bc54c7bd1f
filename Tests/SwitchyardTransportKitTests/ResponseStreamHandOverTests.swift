import Switchyard
import Testing

/// `ResponseStream.deliverHead(_:declaredBytes:finishing:)`: a head handed over with the I/O's
/// outcome wakes its waiter to an exchange that has already ended. Every wait is for an event (the
/// driver hears that the waiter parked), never for time. The limit is the suite's hang guard, as
/// long as the other suites': when the whole suite starts at once on a loaded two-core machine, even a
/// test that never parks took 79 s to be scheduled through.
@Suite(.timeLimit(.minutes(2))) struct ResponseStreamHandOverTests {
    /// Tells the test when the head's waiter has parked (`startReceiving`).
    private struct Driver: ResponseStreamDriver {
        typealias Head = String
        typealias Queue = ResponseChunks
        let parked: AsyncStream<Void>.Continuation
        var host: String { "api.test" }
        func startReceiving(_ stream: ResponseStream<Driver>) { parked.yield() }
    }

    private static func stream() -> (ResponseStream<Driver>, AsyncStream<Void>) {
        let (parked, continuation) = AsyncStream.makeStream(of: Void.self)
        let stream = ResponseStream(
            driver: Driver(parked: continuation),
            state: .init(queue: ResponseChunks(), highWaterBytes: 1 << 16, overflow: .refuseAndPause))
        return (stream, parked)
    }

    /// Starts a task waiting for the head and returns once it has parked.
    private static func parkedWaiter(on stream: ResponseStream<Driver>, _ parked: AsyncStream<Void>) async -> Task<String, any Error> {
        let waiter = Task { try await stream.head() }
        var events = parked.makeAsyncIterator()
        _ = await events.next()
        return waiter
    }

    @Test func aParkedWaiterWakesToTheWholeBody() async throws {
        let (stream, parked) = Self.stream()
        let waiter = await Self.parkedWaiter(on: stream, parked)
        #expect(stream.offer([1, 2, 3]) == .accepted)
        #expect(stream.offer([4]) == .accepted)
        stream.deliverHead("head", declaredBytes: 4, finishing: .success(()))
        #expect(try await waiter.value == "head")
        #expect(stream.isFinished)
        #expect(stream.takeWholeBody(upTo: 100) == [1, 2, 3, 4])
    }

    @Test func aHeadNobodyWaitsForYetIsKeptWithTheEnd() async throws {
        let (stream, _) = Self.stream()
        #expect(stream.offer([9, 9]) == .accepted)
        stream.deliverHead("head", finishing: .success(()))
        #expect(try await stream.head() == "head")
        #expect(stream.takeWholeBody(upTo: 100) == [9, 9])
    }

    @Test func aCleanEndShortOfTheDeclaredLengthIsTruncatedAfterTheHead() async throws {
        let (stream, parked) = Self.stream()
        let waiter = await Self.parkedWaiter(on: stream, parked)
        #expect(stream.offer([1, 2]) == .accepted)
        stream.deliverHead("head", declaredBytes: 10, finishing: .success(()))
        #expect(try await waiter.value == "head", "the head arrived; the body is what fails")
        #expect(stream.takeWholeBody(upTo: 100) == nil)
        let error = await #expect(throws: SwitchyardError.self) { try await stream.nextChunk() }
        #expect(error?.message.contains("10") == true, "names the declared length: \(String(describing: error))")
    }

    @Test func aFailureWithAHeadNobodyTookFailsTheLaterWaiter() async throws {
        let (stream, _) = Self.stream()
        stream.deliverHead("head", finishing: .failure(.timedOut("It took too long.")))
        let error = await #expect(throws: SwitchyardError.self) { try await stream.head() }
        #expect(error?.kind == .timeout)
    }
}
