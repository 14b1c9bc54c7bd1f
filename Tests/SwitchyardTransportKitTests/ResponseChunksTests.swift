import SwitchyardTransportKit
import Testing

/// The in-memory chunk queue: a lone chunk waits in a slot of its own, and chunks still come out in
/// arrival order, byte counts included, however appends and pops interleave.
@Suite struct ResponseChunksTests {
    @Test func chunksComeOutInArrivalOrderWhateverTheInterleaving() {
        var queue = ResponseChunks()
        var expected: [UInt8] = []
        var popped: [UInt8] = []
        var next: UInt8 = 0
        // Append one, two or three chunks, then pop one or two: the lone-chunk slot fills, empties
        // and refills between array appends.
        for round in 0..<40 {
            for _ in 0...(round % 3) {
                queue.append([next])
                expected.append(next)
                next &+= 1
            }
            for _ in 0...(round % 2) {
                if let chunk = queue.popFirst() { popped += chunk }
            }
            #expect(queue.memoryBytes == expected.count - popped.count)
            #expect(queue.isEmpty == (expected.count == popped.count))
        }
        while let chunk = queue.popFirst() { popped += chunk }
        #expect(popped == expected)
        #expect(queue.isEmpty)
        #expect(queue.memoryBytes == 0)
    }

    @Test func removingEverythingEmptiesTheSlotToo() {
        var queue = ResponseChunks()
        queue.append([1, 2, 3])
        queue.append([4])
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.memoryBytes == 0)
        #expect(queue.popFirst() == nil)
        queue.append([5])
        #expect(queue.popFirst() == [5])
    }
}
