package import HTTPTypes
import SwitchyardCore

/// Field names that servers send on most responses, recognised byte for byte so a head line with
/// one of them skips building, validating and lower-casing a name string: the name is a value made
/// once. A name is recognised in the capitalisation servers use for HTTP/1.1 (`Content-Length`) and
/// in lower case (HTTP/2, and servers that send it so); any other spelling takes the general path,
/// which keeps the name exactly as sent.
package enum CommonFieldNames {
    /// The spellings and their names, made once and never freed: plain pointers, so reading the
    /// table retains nothing, and a lookup copies a name only for the match.
    private struct Table: @unchecked Sendable {  // built once in `table`'s initialiser, then only read
        /// Every spelling's bytes, back to back, shortest first.
        let bytes: UnsafeRawBufferPointer
        /// For each length in bytes (and one past the longest), the index in ``names`` of its first
        /// spelling: the spellings of length `n` are `names[first[n]..<first[n + 1]]`.
        let first: UnsafeBufferPointer<Int>
        /// For each length in bytes, where its first spelling starts in ``bytes``; the others follow
        /// it, `n` bytes apart.
        let start: UnsafeBufferPointer<Int>
        let names: UnsafeBufferPointer<HTTPField.Name>
    }

    private static let table: Table = {
        let predefined: [HTTPField.Name] = [
            .date, .server, .contentType, .contentLength, .connection, .cacheControl, .eTag, .lastModified,
            .expires, .vary, .location, .setCookie, .transferEncoding, .contentEncoding, .acceptRanges, .age,
            .retryAfter, .strictTransportSecurity, .contentRange, .wwwAuthenticate, .accessControlAllowOrigin
        ]
        let more: [String] = ["Keep-Alive", "X-Content-Type-Options"]
        let standard = predefined + more.compactMap { HTTPField.Name($0) }
        var spellings: [HTTPField.Name] = []
        for name in standard {
            spellings.append(name)
            if name.canonicalName != name.rawName, let lower = HTTPField.Name(name.canonicalName) { spellings.append(lower) }
        }
        spellings.sort { $0.rawName.utf8.count < $1.rawName.utf8.count }
        let longest = spellings.last?.rawName.utf8.count ?? 0
        let joined = spellings.flatMap { Array($0.rawName.utf8) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: joined.count, alignment: 1)
        joined.withUnsafeBytes { bytes.copyMemory(from: $0) }
        let first = UnsafeMutableBufferPointer<Int>.allocate(capacity: longest + 2)
        let start = UnsafeMutableBufferPointer<Int>.allocate(capacity: longest + 2)
        var index = 0
        var offset = 0
        for length in 0...(longest + 1) {
            first[length] = index
            start[length] = offset
            while index < spellings.count, spellings[index].rawName.utf8.count == length {
                offset += length
                index += 1
            }
        }
        let names = UnsafeMutableBufferPointer<HTTPField.Name>.allocate(capacity: spellings.count)
        _ = names.initialize(from: spellings)
        return Table(
            bytes: UnsafeRawBufferPointer(bytes), first: UnsafeBufferPointer(first), start: UnsafeBufferPointer(start),
            names: UnsafeBufferPointer(names))
    }()

    /// The name `bytes` spell, if it is one of the common names in a recognised spelling.
    package static func name(_ bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        index(of: bytes).map { table.names[$0] }
    }

    /// The name `string` spells, if it is one of the common names in a recognised spelling; any other
    /// valid name is made (and validated) the general way; `nil` for an invalid name.
    package static func name(_ string: String) -> HTTPField.Name? {
        let common = string.utf8.withContiguousStorageIfAvailable { index(of: UnsafeRawBufferPointer($0)) }
        if let common, let common { return table.names[common] }
        return HTTPField.Name(string)
    }

    /// Where in the table's names the spelling `bytes` is, if it is there.
    private static func index(of bytes: UnsafeRawBufferPointer) -> Int? {
        let table = Self.table
        let length = bytes.count
        guard length + 1 < table.first.count, let name = bytes.baseAddress, let spellings = table.bytes.baseAddress else {
            return nil
        }
        var offset = table.start[length]
        for index in table.first[length]..<table.first[length + 1] {
            if equal(name, spellings + offset, count: length) { return index }
            offset += length
        }
        return nil
    }

    /// Whether the `count` bytes at `a` and at `b` are the same: eight at a time, then one by one.
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset += 8
        }
        while offset < count {
            guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self) else { return false }
            offset += 1
        }
        return true
    }
}
