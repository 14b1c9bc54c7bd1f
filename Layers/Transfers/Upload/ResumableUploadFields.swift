import HTTPTypes
import SwitchyardCore

/// The header fields and values of "Resumable Uploads for HTTP",
/// [draft-ietf-httpbis-resumable-upload-10](https://datatracker.ietf.org/doc/draft-ietf-httpbis-resumable-upload/10/)
/// (interop version 8).
enum ResumableUploadFields {
    /// The interop version of draft -10, sent on every request of the protocol.
    static let interopVersion = "8"
    /// The media type of an append's content, and the `Accept-Patch` value that announces support.
    static let partialUploadType = "application/partial-upload"

    /// A structured-field Boolean (`?1` / `?0`).
    static func boolean(_ value: Bool) -> String { value ? "?1" : "?0" }

    /// Parses a structured-field Boolean; anything else is `nil` (the field is then ignored).
    static func parseBoolean(_ value: String?) -> Bool? {
        switch value?.trimmingSpaces() {
        case "?1": true
        case "?0": false
        default: nil
        }
    }

    /// Parses a structured-field non-negative Integer (at most 15 digits); anything else is `nil`.
    static func parseOffset(_ value: String?) -> Int64? {
        guard let text = value?.trimmingSpaces(), !text.isEmpty, text.count <= 15,
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        return Int64(text)
    }

    /// Whether an `Accept-Patch` value lists `application/partial-upload` (the draft's sign of support).
    static func acceptsPartialUploads(_ values: [String]) -> Bool {
        values.flatMap { $0.split(separator: ",") }.contains { type in
            let bare = type.split(separator: ";").first ?? ""
            return bare.trimmingSpaces().lowercased() == partialUploadType
        }
    }
}

extension HTTPField.Name {
    /// `Upload-Complete`: whether the request (or the upload) carries the end of the representation.
    static let uploadComplete = Self("Upload-Complete")!
    /// `Upload-Offset`: the bytes of the representation the upload resource has processed.
    static let uploadOffset = Self("Upload-Offset")!
    /// `Upload-Length`: the size of the whole representation.
    static let uploadLength = Self("Upload-Length")!
    /// `Upload-Draft-Interop-Version`: the draft iteration spoken.
    static let uploadDraftInteropVersion = Self("Upload-Draft-Interop-Version")!
    /// `Accept-Patch` (RFC 5789): the patch document types a resource accepts.
    static let acceptPatchTypes = Self("Accept-Patch")!
}
