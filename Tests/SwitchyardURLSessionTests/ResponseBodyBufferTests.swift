import Foundation
import Testing

@testable import SwitchyardURLSession

@Suite(.timeLimit(.minutes(2))) struct ResponseBodyBufferTests {
    /// Bytes 0, 1, 2, … (mod 251) from `start`, so any reordering or loss shows.
    private func pattern(from start: Int, count: Int) -> Data {
        Data((start..<start + count).map { UInt8($0 % 251) })
    }

    @Test func spilledBytesComeBackInOrderWhateverTheInterleaving() throws {
        var buffer = ResponseBodyBuffer(memoryLimit: 64 * 1024)
        var written = 0
        var read: [UInt8] = []
        // Chunk sizes that cross the memory limit and the spill file's staging block repeatedly.
        let sizes = [16_384, 70_000, 1, 300_000, 1 << 20, 5, 2_000_000, 16_384, 12_345]
        for (round, size) in sizes.enumerated() {
            try buffer.append(pattern(from: written, count: size), mayUseDisk: true)
            written += size
            // Read a little every other round, so appends land while the file is partly read.
            if round.isMultiple(of: 2), let chunk = try buffer.take() { read += chunk }
        }
        #expect(buffer.memoryBytes <= 64 * 1024 + 16_384)
        while let chunk = try buffer.take() { read += chunk }
        #expect(buffer.isEmpty)
        #expect(read.count == written)
        #expect(read == [UInt8](pattern(from: 0, count: written)))
    }

    @Test func aDrainedBufferTakesNewBytesAgain() throws {
        var buffer = ResponseBodyBuffer(memoryLimit: 1_024)
        try buffer.append(pattern(from: 0, count: 4_096), mayUseDisk: true)
        try buffer.append(pattern(from: 4_096, count: 4_096), mayUseDisk: true)
        var read: [UInt8] = []
        while let chunk = try buffer.take() { read += chunk }
        try buffer.append(pattern(from: 8_192, count: 100), mayUseDisk: true)
        while let chunk = try buffer.take() { read += chunk }
        #expect(read == [UInt8](pattern(from: 0, count: 8_292)))
    }
}
