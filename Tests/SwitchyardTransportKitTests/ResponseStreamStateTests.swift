import Switchyard
import Testing

/// The transport kit's response state machine, driven event by event: no threads, no timing.
@Suite struct ResponseStreamStateTests {
    private typealias State = ResponseStreamState<String, ResponseChunks>

    private static func state(
        high: Int = 100, overflow: State.Overflow = .refuseAndPause,
        limit: Int64? = nil
    ) -> State {
        State(queue: ResponseChunks(), highWaterBytes: high, overflow: overflow, byteLimit: limit)
    }

    private static func chunk(_ count: Int) -> ArraySlice<UInt8> { ArraySlice(repeating: 7, count: count) }

    // MARK: - Whole body

    @Test func aBodyThatEndedCleanlyWithItsHeadIsTakenWholeOnce() {
        var state = Self.state(high: 1_000)
        _ = state.headArrived("head")
        _ = state.chunkOffered(Self.chunk(3))
        #expect(state.takeWholeBody(upTo: 100) == nil, "still running")
        _ = state.chunkOffered(Self.chunk(4))
        _ = state.finish(.success(()), host: "api.test")
        #expect(state.takeWholeBody(upTo: 6) == nil, "above the limit")
        #expect(state.takeWholeBody(upTo: 100) == Self.chunk(7))
        guard case .end = state.readChunk() else {
            Issue.record("the whole body was taken; the reader sees the end")
            return
        }
    }

    @Test func aFailedPartlyReadOrTruncatedBodyIsNeverTakenWhole() {
        var failed = Self.state()
        _ = failed.headArrived("head")
        _ = failed.chunkOffered(Self.chunk(3))
        _ = failed.cancel(.cancelled)
        #expect(failed.takeWholeBody(upTo: 100) == nil)

        var read = Self.state()
        _ = read.headArrived("head")
        _ = read.chunkOffered(Self.chunk(3))
        _ = read.chunkOffered(Self.chunk(3))
        _ = read.readChunk()
        _ = read.finish(.success(()), host: "api.test")
        #expect(read.takeWholeBody(upTo: 100) == nil, "a reader already has part of it")

        var truncated = Self.state()
        _ = truncated.headArrived("head", declaredBytes: 10)
        _ = truncated.chunkOffered(Self.chunk(3))
        _ = truncated.finish(.success(()), host: "api.test")
        #expect(truncated.takeWholeBody(upTo: 100) == nil, "ended short of its declared length")
    }

    // MARK: - Head

    @Test func headArrivingForAParkedWaiterResumesIt() {
        var state = Self.state()
        guard case .park = state.waitForHead() else {
            Issue.record("expected to park")
            return
        }
        let delivery1 = state.headArrived("head")
        #expect(delivery1 == .resumeWaiter)
        let delivery2 = state.headArrived("second")
        #expect(delivery2 == .dropped)
    }

    @Test func headArrivingBeforeTheWaiterIsKeptUntilAsked() {
        var state = Self.state()
        let delivery3 = state.headArrived("head")
        #expect(delivery3 == .kept)
        guard case .head(let head) = state.waitForHead() else {
            Issue.record("expected the kept head")
            return
        }
        #expect(head == "head")
    }

    @Test func cleanEndWithoutHeadFailsTheParkedWaiterAsProtocolViolation() throws {
        var state = Self.state()
        _ = state.waitForHead()
        let result = state.finish(.success(()), host: "api.test")
        let ending = try #require(result)
        #expect(ending.resumeHeadWaiter)
        guard case .failure(let error) = ending.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .protocolViolation)
        #expect(error.message.contains("api.test") && error.message.contains("without a response head"))
    }

    @Test func failureReleasesAHeadNobodyTook() throws {
        var state = Self.state()
        let delivery4 = state.headArrived("head")
        #expect(delivery4 == .kept)
        let result = state.cancel(.cancelled)
        let ending = try #require(result)
        #expect(ending.unclaimedHead == "head")
        guard case .fail(let error) = state.waitForHead() else {
            Issue.record("expected the failure")
            return
        }
        #expect(error.kind == .cancelled)
    }

    // MARK: - Chunks and water marks

    @Test func chunkOfferedToAParkedReaderGoesStraightToIt() {
        var state = Self.state()
        _ = state.headArrived("head")
        guard case .park = state.readChunk() else {
            Issue.record("expected to park")
            return
        }
        guard case .resumeReader = state.chunkOffered(Self.chunk(10)) else {
            Issue.record("expected a hand-over")
            return
        }
        // The next chunk is queued: nobody is parked any more.
        guard case .accepted = state.chunkOffered(Self.chunk(10)) else {
            Issue.record("expected queueing")
            return
        }
    }

    @Test func lookingWithoutParkingDoesNotRegisterAReader() {
        var state = Self.state()
        _ = state.headArrived("head")
        guard case .park = state.readChunk(parking: false) else {
            Issue.record("expected nothing ready")
            return
        }
        guard case .accepted = state.chunkOffered(Self.chunk(1)) else {
            Issue.record("expected queueing")
            return
        }
    }

    @Test func refusingPolicyPausesAtTheHighMarkAndResumesOnceBelowTheLowMark() {
        var state = Self.state(high: 100)  // low mark: 25
        _ = state.headArrived("head")
        for _ in 0..<4 {
            guard case .accepted = state.chunkOffered(Self.chunk(25)) else {
                Issue.record("expected queueing")
                return
            }
        }
        guard case .refusedAndPause = state.chunkOffered(Self.chunk(25)) else {
            Issue.record("expected a pause")
            return
        }
        #expect(state.isReceivingPaused)
        var resumes: [Bool] = []
        for _ in 0..<4 {
            guard case .chunk(let chunk, let resume) = state.readChunk() else {
                Issue.record("expected a chunk")
                return
            }
            #expect(chunk.count == 25)
            resumes.append(resume)
        }
        // 75, 50 still queued: paused; 25 is the low mark: resume, exactly once.
        #expect(resumes == [false, false, true, false])
        #expect(!state.isReceivingPaused)
    }

    @Test func keepingPolicyKeepsTheChunkAndPausesOnce() {
        var state = Self.state(high: 50, overflow: .keepAndPause)
        _ = state.headArrived("head")
        guard case .accepted = state.chunkOffered(Self.chunk(30)) else {
            Issue.record("expected queueing")
            return
        }
        guard case .acceptedAndPause = state.chunkOffered(Self.chunk(30)) else {
            Issue.record("expected a pause")
            return
        }
        guard case .accepted = state.chunkOffered(Self.chunk(30)) else {
            Issue.record("one pause only")
            return
        }
    }

    @Test func byteLimitEndsTheExchangeAsTooLarge() {
        var state = Self.state(limit: 15)
        _ = state.headArrived("head")
        guard case .accepted = state.chunkOffered(Self.chunk(10)) else {
            Issue.record("expected queueing")
            return
        }
        guard case .failed(let ending) = state.chunkOffered(Self.chunk(10)) else {
            Issue.record("expected failure")
            return
        }
        guard case .failure(let error) = ending.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .responseTooLarge)
        // Nothing is delivered after the failure, not even what was queued.
        guard case .fail = state.readChunk() else {
            Issue.record("expected the failure")
            return
        }
    }

    // MARK: - Outcome

    @Test func successStillDeliversQueuedChunksThenEnds() {
        var state = Self.state()
        _ = state.headArrived("head")
        _ = state.chunkOffered(Self.chunk(3))
        let finished = state.finish(.success(()), host: "h")
        #expect(finished != nil)
        guard case .chunk(let chunk, _) = state.readChunk() else {
            Issue.record("expected the chunk")
            return
        }
        #expect(chunk.count == 3)
        guard case .end = state.readChunk() else {
            Issue.record("expected the end")
            return
        }
    }

    @Test func firstOutcomeWinsAndNothingIsTakenAfterIt() throws {
        var state = Self.state()
        _ = state.headArrived("head")
        guard case .park = state.readChunk() else {
            Issue.record("expected to park")
            return
        }
        let result = state.cancel(.cancelled)
        let ending = try #require(result)
        #expect(ending.resumeReader)
        let late = state.finish(.success(()), host: "h")
        let again = state.cancel(.timedOut())
        #expect(late == nil && again == nil)
        guard case .abort = state.chunkOffered(Self.chunk(1)) else {
            Issue.record("expected abort")
            return
        }
        let delivery5 = state.headArrived("late")
        #expect(delivery5 == .dropped)
        guard case .fail(let error, nil) = state.readChunk() else {
            Issue.record("expected the failure")
            return
        }
        #expect(error.kind == .cancelled)
    }

    @Test func cleanEndShortOfTheDeclaredLengthIsATruncatedBody() throws {
        var state = Self.state()
        _ = state.headArrived("head", declaredBytes: 10)
        _ = state.chunkOffered(Self.chunk(4))
        let result = state.finish(.success(()), host: "api.test")
        let ending = try #require(result)
        guard case .failure(let error) = ending.outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.kind == .protocolViolation)
        #expect(error.message.contains("declared 10 body bytes but sent 4"))
    }
}
