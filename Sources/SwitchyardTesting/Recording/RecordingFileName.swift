/// Stable, readable file names for recorded exchanges: `0001-GET-users_42.json`.
///
/// The name is the sequence number (at least four digits, so names sort in recorded order), the method,
/// and the path without its query, with every character other than ASCII letters, digits and `-` turned
/// into `_` (so no name gains a second extension or a `..`), cut to ``maxPathLength`` characters.
/// The root path is written `root`.
enum RecordingFileName {
    /// The longest path part of a name, so names stay well under file-system limits.
    static let maxPathLength = 80

    /// The file name for exchange `sequence` of `method path`.
    static func make(sequence: Int, method: String, path: String) -> String {
        let number = String(sequence)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return "\(padded)-\(sanitize(method))-\(sanitize(pathPart(path))).json"
    }

    private static func pathPart(_ path: String) -> Substring {
        let withoutQuery = path.prefix { $0 != "?" && $0 != "#" }
        let trimmed = withoutQuery.drop { $0 == "/" }
        return trimmed.isEmpty ? "root" : trimmed
    }

    private static func sanitize(_ text: some StringProtocol) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(maxPathLength) {
            let keep =
                scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || scalar == "-")
            result.unicodeScalars.append(keep ? scalar : "_")
        }
        return result.isEmpty ? "_" : result
    }
}
