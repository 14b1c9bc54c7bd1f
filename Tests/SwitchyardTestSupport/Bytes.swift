import Crypto
import Switchyard
public import SwitchyardTransfers

/// The deterministic byte pattern of the loopback server's `/bytes/{n}` route.
/// - Parameter index: The byte's offset in the body.
/// - Returns: The byte the server sends there.
public func expectedPatternByte(at index: Int) -> UInt8 { UInt8(index % 251) }

/// The lowercase hex of `bytes`, e.g. of a digest.
/// - Parameter bytes: The bytes.
/// - Returns: Two hex digits per byte.
public func hex(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]] }
    return String(decoding: text, as: UTF8.self)
}

/// The lowercase hex SHA-256 of `bytes`, as the `/echo` route reports a body's digest.
/// - Parameter bytes: The bytes.
/// - Returns: The digest in hex.
public func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
    var hasher = SHA256()
    hasher.update(data: Array(bytes))
    return hex(hasher.finalize())
}

/// swift-crypto's SHA-256 as a download ``ChecksumHasher``.
public struct SHA256ChecksumHasher: ChecksumHasher {
    private var hasher = SHA256()

    /// Creates an empty hasher.
    public init() {}

    /// Feeds bytes.
    /// - Parameter bytes: The bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

    /// The digest.
    /// - Returns: 32 bytes.
    public mutating func finalize() -> [UInt8] { Array(hasher.finalize()) }
}
