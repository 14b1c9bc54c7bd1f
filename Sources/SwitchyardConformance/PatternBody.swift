import Crypto
public import Switchyard

/// The deterministic byte pattern of the loopback server (`byte i = i % 251`), generated on the
/// fly so uploads of any size take no memory, and hashed so downloads can be checked as they stream.
public enum PatternBody {
    /// Pattern bytes `offset ..< offset + count`.
    /// - Parameters:
    ///   - offset: The first byte's position.
    ///   - count: How many bytes.
    /// - Returns: The bytes.
    public static func bytes(from offset: Int = 0, count: Int) -> [UInt8] {
        (0..<count).map { UInt8((offset + $0) % 251) }
    }

    /// A single-use streamed body of `count` pattern bytes in chunks of `chunkSize`.
    /// - Parameters:
    ///   - count: Total bytes.
    ///   - chunkSize: Bytes per chunk.
    ///   - declaresLength: Whether the body declares its length (Content-Length) or not (chunked).
    /// - Returns: The body.
    public static func stream(count: Int, chunkSize: Int = 64 * 1024, declaresLength: Bool) -> HTTPBody {
        let period = 251
        // One chunk-sized window, plus a period, so every chunk is a slice of it.
        let window = bytes(count: chunkSize + period)
        return HTTPBody(
            PatternChunks(window: window, chunkSize: chunkSize, total: count),
            length: declaresLength ? .known(Int64(count)) : .unknown
        )
    }

    /// Lowercase hex SHA-256 of `count` pattern bytes.
    /// - Parameter count: Total bytes.
    /// - Returns: The digest.
    public static func sha256(count: Int) -> String {
        var hasher = SHA256()
        let window = bytes(count: 64 * 1024 + 251)
        var offset = 0
        while offset < count {
            let length = min(64 * 1024, count - offset)
            let start = offset % 251
            hasher.update(data: window[start..<(start + length)])
            offset += length
        }
        return hex(hasher.finalize())
    }

    /// Lowercase hex SHA-256 of `bytes`.
    /// - Parameter bytes: Any bytes.
    /// - Returns: The digest.
    public static func sha256(of bytes: some Collection<UInt8>) -> String {
        hex(SHA256.hash(data: Array(bytes)))
    }

    static func hex(_ digest: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// An async sequence of pattern chunks; each chunk is a slice of one shared window.
struct PatternChunks: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>
    let window: [UInt8]
    let chunkSize: Int
    let total: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let window: [UInt8]
        let chunkSize: Int
        let total: Int
        var offset = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard offset < total else { return nil }
            let length = Swift.min(chunkSize, total - offset)
            let start = offset % 251
            offset += length
            return window[start..<(start + length)]
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(window: window, chunkSize: chunkSize, total: total)
    }
}

/// Hashes a response body as it streams, keeping only its length and running digest.
public struct StreamingDigest {
    private var hasher = SHA256()
    /// Bytes seen so far.
    public private(set) var count = 0

    /// Starts an empty digest.
    public init() {}

    /// Adds `chunk`.
    /// - Parameter chunk: The next bytes.
    public mutating func update(_ chunk: ArraySlice<UInt8>) {
        count += chunk.count
        chunk.withUnsafeBytes { hasher.update(bufferPointer: $0) }
    }

    /// Lowercase hex SHA-256 of everything added.
    public func finalize() -> String {
        PatternBody.hex(hasher.finalize())
    }
}
