import SwitchyardCore

extension Download {
    /// How a download treats an existing partial file and how it verifies the result.
    public struct Configuration: Sendable {
        /// Continue `FILE.part` left by an earlier download (with `Range`/`If-Range`); when `false`,
        /// an existing partial file is discarded. On by default: the stored validator makes sure
        /// the bytes on disk belong to the same version of the resource.
        public var resumesPartialFile: Bool
        /// A checksum the complete file must have; `nil` checks the length only.
        public var checksum: DownloadChecksum?

        /// Creates a configuration.
        /// - Parameters:
        ///   - resumesPartialFile: Continue an existing partial file (default `true`).
        ///   - checksum: The checksum to verify, if any.
        public init(resumesPartialFile: Bool = true, checksum: DownloadChecksum? = nil) {
            self.resumesPartialFile = resumesPartialFile
            self.checksum = checksum
        }
    }
}

/// An incremental hash function, for verifying downloads with the caller's own algorithm
/// (the core has no cryptography dependency; wrap swift-crypto's `SHA256`, for instance).
///
/// ```swift
/// struct SHA256Hasher: ChecksumHasher {
///     var hash = Crypto.SHA256()
///     mutating func update(_ bytes: UnsafeRawBufferPointer) { hash.update(bufferPointer: bytes) }
///     mutating func finalize() -> [UInt8] { Array(hash.finalize()) }
/// }
/// ```
public protocol ChecksumHasher {
    /// Feeds the next bytes.
    /// - Parameter bytes: The bytes.
    mutating func update(_ bytes: UnsafeRawBufferPointer)
    /// The digest of everything fed so far.
    /// - Returns: The digest bytes.
    mutating func finalize() -> [UInt8]
}

/// The checksum a downloaded file must have.
public struct DownloadChecksum: Sendable {
    /// The expected digest.
    public var expected: [UInt8]
    /// Makes a fresh hasher for each verification.
    public var makeHasher: @Sendable () -> any ChecksumHasher

    /// Creates a checksum.
    /// - Parameters:
    ///   - expected: The expected digest bytes.
    ///   - makeHasher: Makes a fresh hasher.
    public init(expected: [UInt8], makeHasher: @escaping @Sendable () -> any ChecksumHasher) {
        self.expected = expected
        self.makeHasher = makeHasher
    }

    /// Creates a checksum from a hexadecimal digest; `nil` when `hex` is not hexadecimal.
    /// - Parameters:
    ///   - hex: The expected digest as hexadecimal text (either case).
    ///   - makeHasher: Makes a fresh hasher.
    public init?(hex: String, makeHasher: @escaping @Sendable () -> any ChecksumHasher) {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.init(expected: bytes, makeHasher: makeHasher)
    }

    /// Hashes the file at `path` (streamed) and compares.
    func verify(path: String) throws(SwitchyardError) {
        let file = try FileDescriptor.reading(path)
        defer { file.close() }
        var hasher = makeHasher()
        while true {
            let bytes = try file.read()
            if bytes.isEmpty { break }
            bytes.withUnsafeBytes { hasher.update($0) }
        }
        guard hasher.finalize() == expected else {
            throw .protocolViolation("The downloaded file does not have the expected checksum; the partial file was removed.")
        }
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
