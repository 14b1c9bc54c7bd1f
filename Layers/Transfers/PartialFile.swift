import SwitchyardCore

/// The on-disk side of a download: `FILE.part` holds the bytes received so far and
/// `FILE.part.validator` the response's validator (its `ETag`, else its `Last-Modified`), which a
/// resumed download sends as `If-Range` so that a changed resource is fetched whole instead of
/// being spliced onto old bytes. The complete file replaces `FILE` with one atomic rename.
struct PartialFile {
    /// The final path.
    let destination: String

    /// Where the bytes go until the file is complete.
    var partPath: String { destination + ".part" }
    /// Where the validator of the bytes in the partial file is kept.
    var validatorPath: String { destination + ".part.validator" }

    /// Bytes already in the partial file (0 without one).
    var existingBytes: Int64 { FileDescriptor.size(of: partPath) ?? 0 }

    /// The stored validator, if any.
    func storedValidator() -> String? {
        guard let file = try? FileDescriptor.reading(validatorPath), let bytes = try? file.read(), !bytes.isEmpty else {
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // Header-safe only: a damaged sidecar must not inject anything into the request.
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        return text
    }

    /// Stores `validator` (or removes the stored one when `nil`).
    func storeValidator(_ validator: String?) throws(SwitchyardError) {
        FileDescriptor.remove(validatorPath)
        guard let validator else { return }
        let file = try FileDescriptor.writing(validatorPath, truncating: true)
        defer { file.close() }
        try file.write(Array(validator.utf8)[...])
    }

    /// Discards the partial file and its validator.
    func discard() {
        FileDescriptor.remove(partPath)
        FileDescriptor.remove(validatorPath)
    }

    /// Moves the complete partial file into place and removes the validator.
    func commit() throws(SwitchyardError) {
        try FileDescriptor.rename(partPath, to: destination)
        FileDescriptor.remove(validatorPath)
    }
}
