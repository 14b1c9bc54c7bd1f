import Foundation

/// A fresh directory under the temporary directory, for files a test writes.
/// - Parameter name: A prefix for the directory's name.
/// - Returns: Its path.
public func makeTemporaryDirectory(_ name: String = "switchyard") throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// `count` bytes of the loopback server's `/bytes` pattern starting at body offset `offset`.
private func patternBlock(from offset: Int, count: Int) -> [UInt8] {
    (0..<count).map { UInt8((offset + $0) % 251) }
}

/// Writes `count` bytes of the `/bytes` pattern to `path`, 1 MiB at a time.
/// - Parameters:
///   - path: The file to create.
///   - count: Its size.
public func writePatternFile(at path: String, count: Int) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
        throw CocoaError(.fileWriteUnknown)
    }
    defer { try? handle.close() }
    let block = patternBlock(from: 0, count: (1 << 20) + 251)
    var offset = 0
    while offset < count {
        let length = min(1 << 20, count - offset)
        let start = offset % 251
        try handle.write(contentsOf: block[start..<(start + length)])
        offset += length
    }
}

/// Whether the file at `path` is exactly `count` bytes of the `/bytes` pattern (read 1 MiB at a time).
/// - Parameters:
///   - path: The file.
///   - count: The expected size.
/// - Returns: Whether it matches.
public func fileMatchesPattern(at path: String, count: Int) throws -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let block = patternBlock(from: 0, count: (1 << 20) + 251)
    var offset = 0
    while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
        guard offset + data.count <= count else { return false }
        let start = offset % 251
        let same = data.withUnsafeBytes { read in
            block[start..<(start + data.count)].withUnsafeBytes { expected in
                guard let actual = read.baseAddress, let wanted = expected.baseAddress else { return false }
                return memcmp(actual, wanted, data.count) == 0
            }
        }
        guard same else { return false }
        offset += data.count
    }
    return offset == count
}

/// The size of the file at `path`, or `nil` if there is none.
/// - Parameter path: The file.
/// - Returns: Its size in bytes.
public func fileSize(at path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
}
