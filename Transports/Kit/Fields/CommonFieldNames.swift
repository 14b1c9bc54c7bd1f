package import HTTPTypes
import SwitchyardCore

/// Field names that servers send on most responses, recognised byte for byte so a head line with
/// one of them skips building, validating and lower-casing a name string: the name is a value made
/// once. A name is recognised in the capitalisation servers use for HTTP/1.1 (`Content-Length`) and
/// in lower case (HTTP/2, and servers that send it so); any other spelling takes the general path,
/// which keeps the name exactly as sent.
package enum CommonFieldNames {
    /// The spellings and their names, made once: a lookup compares bytes in one buffer and copies a
    /// name only for the match (a header line's lookup retains nothing else).
    private struct Table: @unchecked Sendable {  // built once in `table`'s initialiser, then only read
        /// Every spelling's bytes, back to back; never freed.
        let bytes: UnsafeRawBufferPointer
        /// For each length in bytes, the (offset into ``bytes``, index into ``names``) of its spellings.
        let byLength: [[(offset: Int, name: Int)]]
        let names: [HTTPField.Name]
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
        let joined = spellings.flatMap { Array($0.rawName.utf8) }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: joined.count, alignment: 1)
        joined.withUnsafeBytes { bytes.copyMemory(from: $0) }
        var byLength = Array(repeating: [(offset: Int, name: Int)](), count: 1 + (spellings.map(\.rawName.utf8.count).max() ?? 0))
        var offset = 0
        for (index, name) in spellings.enumerated() {
            let count = name.rawName.utf8.count
            byLength[count].append((offset, index))
            offset += count
        }
        return Table(bytes: UnsafeRawBufferPointer(bytes), byLength: byLength, names: spellings)
    }()

    /// The name `bytes` spell, if it is one of the common names in a recognised spelling.
    package static func name(_ bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        let table = Self.table
        guard bytes.count < table.byLength.count else { return nil }
        for candidate in table.byLength[bytes.count]
        where UnsafeRawBufferPointer(rebasing: table.bytes[candidate.offset..<candidate.offset + bytes.count]).elementsEqual(bytes) {
            return table.names[candidate.name]
        }
        return nil
    }

    /// The name `string` spells, if it is one of the common names in a recognised spelling; any other
    /// valid name is made (and validated) the general way; `nil` for an invalid name.
    package static func name(_ string: String) -> HTTPField.Name? {
        var string = string
        return string.withUTF8 { name(UnsafeRawBufferPointer($0)) } ?? HTTPField.Name(string)
    }
}
