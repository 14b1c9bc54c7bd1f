import Foundation
import HTTPTypes
import Switchyard

/// `-H 'Name: value'` options, shared by the commands that send requests.
enum HeaderArguments {
    /// The header fields the `-H` options name, validated.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` for an option without a colon, an invalid
    ///   name, or a value with CR, LF or NUL.
    static func fields(_ headers: [String]) throws(SwitchyardError) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw .invalidRequest("-H '\(header)' is not 'Name: value'.")
            }
            let name = String(header[..<colon])
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .init(charactersIn: " \t"))
            fields.append(try HTTPField.validated(name: name, value: value))
        }
        return fields
    }
}
