import Switchyard
import Testing

/// The transport kit's upload queue, driven event by event.
@Suite struct UploadQueueStateTests {
    private static func read(_ state: inout UploadQueueState, max: Int) -> (UploadQueueState.ReadResult, Bool, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: max)
        let (result, resumeWriter) = buffer.withUnsafeMutableBytes { state.read(into: $0) }
        if case .bytes(let count) = result { return (result, resumeWriter, Array(buffer.prefix(count))) }
        return (result, resumeWriter, [])
    }

    @Test func emptyQueueRecordsAWaitingReaderThatTheNextChunkWakes() {
        var state = UploadQueueState(highWaterBytes: 8)
        let first = Self.read(&state, max: 4).0
        let wakes = [state.append([1, 2, 3]), state.append([4])]
        let (result, _, bytes) = Self.read(&state, max: 3)
        let rest = Self.read(&state, max: 3).2
        #expect(first == .empty)
        #expect(wakes == [true, false])  // woken once
        #expect(result == .bytes(3) && bytes == [1, 2, 3])
        #expect(rest == [4])
    }

    @Test func readsSpanChunksAndSplitThem() {
        var state = UploadQueueState(highWaterBytes: 100)
        _ = state.append([1, 2])
        _ = state.append([3, 4, 5])
        let first = Self.read(&state, max: 4).2
        let second = Self.read(&state, max: 4).2
        #expect(first == [1, 2, 3, 4] && second == [5])
    }

    @Test func fullQueueParksTheWriterUntilAReadMakesRoom() {
        var state = UploadQueueState(highWaterBytes: 4)
        guard case .proceed = state.writeRequested() else {
            Issue.record("expected room")
            return
        }
        _ = state.append([1, 2, 3, 4])
        guard case .park = state.writeRequested() else {
            Issue.record("expected to park")
            return
        }
        let resumes = [Self.read(&state, max: 2).1, Self.read(&state, max: 2).1]
        #expect(resumes == [true, false])  // room made: resume the writer, once
    }

    @Test func endAndFailureAreReportedToTheReader() {
        var finished = UploadQueueState(highWaterBytes: 4)
        let empty = Self.read(&finished, max: 1).0
        let wake = finished.finish()
        let end = Self.read(&finished, max: 1).0
        #expect(empty == .empty && wake && end == .end)

        var failed = UploadQueueState(highWaterBytes: 1)
        _ = failed.append([1])
        _ = failed.writeRequested()
        let (resumeWriter, _) = failed.fail(.cancelled)
        let read = Self.read(&failed, max: 1).0
        #expect(resumeWriter && read == .failed)
        guard case .fail(let error) = failed.writeRequested() else {
            Issue.record("expected the failure")
            return
        }
        #expect(error.kind == .cancelled)
    }
}
