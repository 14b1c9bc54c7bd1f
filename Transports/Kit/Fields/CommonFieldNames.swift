package import HTTPTypes
import SwitchyardCore

/// Field names that servers send on most responses, recognised byte for byte so a head line with
/// one of them skips building, validating and lower-casing a name string: the name is a value made
/// once. A name is recognised in the capitalisation servers use for HTTP/1.1 (`Content-Length`) and
/// in lower case (HTTP/2, and servers that send it so); any other spelling takes the general path,
/// which keeps the name exactly as sent.
package enum CommonFieldNames {
    /// The names, indexed by their length in bytes.
    private static let byLength: [[(spelling: [UInt8], name: HTTPField.Name)]] = {
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
        var table = Array(
            repeating: [(spelling: [UInt8], name: HTTPField.Name)](), count: 1 + (spellings.map(\.rawName.utf8.count).max() ?? 0))
        for name in spellings { table[name.rawName.utf8.count].append((Array(name.rawName.utf8), name)) }
        return table
    }()

    /// The name `bytes` spell, if it is one of the common names in a recognised spelling.
    package static func name(_ bytes: UnsafeRawBufferPointer) -> HTTPField.Name? {
        guard bytes.count < byLength.count else { return nil }
        for candidate in byLength[bytes.count] where candidate.spelling.withUnsafeBytes({ $0.elementsEqual(bytes) }) {
            return candidate.name
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
