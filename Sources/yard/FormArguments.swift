import Foundation
import Switchyard
import SwitchyardAPI

/// `-F` arguments as in curl: `name=value` is a text field, `name=@path` a file streamed from
/// disk (its file name is the path's last component; `;type=mime` sets its content type, else
/// `application/octet-stream`).
enum FormArguments {
    /// The form the arguments describe, in order.
    static func form(_ arguments: [String]) throws -> MultipartForm {
        var parts: [MultipartForm.Part] = []
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw SwitchyardError.invalidRequest("-F '\(argument)' is not 'name=value' or 'name=@path'.")
            }
            let name = String(argument[..<equals])
            let value = String(argument[argument.index(after: equals)...])
            guard value.hasPrefix("@") else {
                parts.append(.field(name, value))
                continue
            }
            var path = String(value.dropFirst())
            var contentType = "application/octet-stream"
            if let marker = path.range(of: ";type=") {
                contentType = String(path[marker.upperBound...])
                path = String(path[..<marker.lowerBound])
            }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw SwitchyardError.invalidRequest("-F '\(argument)': cannot read '\(path)'.")
            }
            let filename = URL(fileURLWithPath: path).lastPathComponent
            parts.append(.fileAtPath(name, filename: filename, contentType: contentType, path: path))
        }
        return MultipartForm(parts: parts)
    }
}
