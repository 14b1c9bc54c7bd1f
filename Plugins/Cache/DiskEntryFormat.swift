import Crypto
import HTTPTypes

/// The bytes of one disk cache entry, checked end to end by a SHA-256 of everything before it:
///
/// ```
/// "SYC1"  header-length (u32 LE)  header  body  body-length (u64 LE)  SHA-256 (32 bytes)
/// ```
///
/// The header is a list of length-prefixed UTF-8 strings: the record kind (`response` or
/// `variants`), then for a response the status, request and response times and the header fields
/// as name/value pairs, for variants the generation and the header names. The body length is at the end because a
/// streamed body's length is known only once it ends. Any change to any byte, a truncation or an
/// extension makes the entry invalid (a same-length corruption included: the digest covers every byte).
enum DiskEntryFormat {
    static let magic: [UInt8] = Array("SYC1".utf8)
    /// The bytes after the body: its length and the digest.
    static let trailerSize = 8 + 32

    /// The opening bytes of an entry: magic, header length and header.
    static func prefix(_ record: CacheRecord) -> [UInt8] {
        var strings: [String]
        switch record {
        case .response(let response):
            strings = ["response", String(response.status), String(response.requestTime), String(response.responseTime)]
            for field in response.headerFields { strings += [field.name.rawName, field.value] }
        case .variants(let names, let generation):
            strings = ["variants", generation] + names
        }
        var header: [UInt8] = []
        for string in strings {
            appendInteger(UInt32(string.utf8.count), to: &header)
            header += string.utf8
        }
        var bytes = magic
        appendInteger(UInt32(header.count), to: &bytes)
        return bytes + header
    }

    /// The closing bytes of an entry whose body has `bodyLength` bytes, given a hasher fed with everything before.
    static func trailer(bodyLength: UInt64, hasher: inout SHA256) -> [UInt8] {
        var length: [UInt8] = []
        appendInteger(bodyLength, to: &length)
        hasher.update(data: length)
        return length + Array(hasher.finalize())
    }

    /// The whole entry for a record whose body is in memory.
    static func encode(_ record: CacheRecord) -> [UInt8] {
        var bytes = prefix(record)
        if case .response(let response) = record { bytes += response.body }
        let bodyLength: UInt64 = if case .response(let response) = record { UInt64(response.body.count) } else { 0 }
        var hasher = SHA256()
        hasher.update(data: bytes)
        return bytes + trailer(bodyLength: bodyLength, hasher: &hasher)
    }

    /// The record in `bytes`, or `nil` when they are not a complete, intact entry.
    static func decode(_ bytes: [UInt8]) -> CacheRecord? {
        let minimum = magic.count + 4 + trailerSize
        guard bytes.count >= minimum, bytes.starts(with: magic) else { return nil }
        let digestStart = bytes.count - 32
        guard SHA256.hash(data: bytes[..<digestStart]).elementsEqual(bytes[digestStart...]) else { return nil }
        guard let headerLength = integer(UInt32.self, in: bytes, at: magic.count),
            let bodyLength = integer(UInt64.self, in: bytes, at: digestStart - 8)
        else { return nil }
        let headerStart = magic.count + 4
        let (bodyStart, overflow) = headerStart.addingReportingOverflow(Int(headerLength))
        guard !overflow, bodyLength <= UInt64(Int.max),
            bodyStart.addingReportingOverflow(Int(bodyLength)) == (digestStart - 8, false)
        else { return nil }
        guard let strings = strings(bytes[headerStart..<bodyStart]), let kind = strings.first else { return nil }
        switch kind {
        case "variants":
            guard strings.count >= 2 else { return nil }
            return .variants(names: Array(strings.dropFirst(2)), generation: strings[1])
        case "response":
            guard strings.count >= 4, strings.count % 2 == 0, let status = Int(strings[1]), (200...999).contains(status),
                let requestTime = Double(strings[2]), let responseTime = Double(strings[3])
            else { return nil }
            var fields = HTTPFields()
            var index = 4
            while index < strings.count {
                guard let name = HTTPField.Name(strings[index]) else { return nil }
                fields.append(HTTPField(name: name, value: strings[index + 1]))
                index += 2
            }
            let body = Array(bytes[bodyStart..<(digestStart - 8)])
            return .response(
                CachedResponse(
                    status: status, headerFields: fields, body: body,
                    requestTime: requestTime, responseTime: responseTime))
        default:
            return nil
        }
    }

    private static func strings(_ bytes: ArraySlice<UInt8>) -> [String]? {
        var strings: [String] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let length = integer(UInt32.self, in: bytes, at: index) else { return nil }
            let start = index + 4
            guard bytes.endIndex - start >= Int(length) else { return nil }
            strings.append(String(decoding: bytes[start..<(start + Int(length))], as: UTF8.self))
            index = start + Int(length)
        }
        return strings
    }

    private static func appendInteger<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func integer<T: FixedWidthInteger, C: Collection<UInt8>>(
        _ type: T.Type, in bytes: C, at index: C.Index
    ) -> T? where C.Index == Int {
        let size = MemoryLayout<T>.size
        guard index >= bytes.startIndex, bytes.endIndex - index >= size else { return nil }
        var value: T = 0
        for offset in 0..<size { value |= T(bytes[index + offset]) << (8 * offset) }
        return value
    }
}
