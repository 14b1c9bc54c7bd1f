import Crypto

/// SHA-256 fingerprints of bodies (`/echo`, `/soak`, multipart parts) in lowercase hex: swift-crypto's hash, so the server
/// keeps pace with a 64 MiB upload even in a debug build on a busy machine.
struct BodyDigest {
    private var hasher = Crypto.SHA256()

    init() {}

    /// Feeds `bytes` into the hash.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        hasher.update(bufferPointer: bytes)
    }

    /// Feeds a byte sequence into the hash.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest.
    consuming func finalize() -> [UInt8] {
        Array(hasher.finalize())
    }

    /// Convenience: lowercase hex of the digest of `bytes`.
    static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        var hasher = BodyDigest()
        hasher.update(bytes)
        return hex(hasher.finalize())
    }

    /// Lowercase hexadecimal rendering of `digest`.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
