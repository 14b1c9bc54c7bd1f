public import SwitchyardCore

extension HTTPBody {
    /// A body streaming the file at `path` from disk, 64 KiB at a time: constant memory whatever
    /// the file's size, `Content-Length` known from the file's size, and replayable (each
    /// iteration reopens the file), so retries and redirects can send it again.
    ///
    /// ```swift
    /// let request = try Request(method: .put, url: "https://example.com/video", body: .file(atPath: "movie.mp4"))
    /// ```
    ///
    /// - Parameter path: The file to send.
    /// - Returns: The body.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when the file does not exist. A file that
    ///   changes size before it is sent fails the exchange the same way, rather than sending a
    ///   body that disagrees with its `Content-Length`.
    public static func file(atPath path: String) throws(SwitchyardError) -> HTTPBody {
        guard let size = FileDescriptor.size(of: path) else {
            throw .invalidRequest("Cannot read '\(path)': no such file, or not readable.")
        }
        return HTTPBody(
            producing: {
                var file: FileDescriptor?
                var sent: Int64 = 0
                var done = false
                return {
                    guard !done else { return nil }
                    if file == nil { file = try FileDescriptor.reading(path) }
                    guard let reader = file else { return nil }
                    let bytes = try reader.read()
                    sent += Int64(bytes.count)
                    if bytes.isEmpty || sent > size {
                        done = true
                        reader.close()
                        guard sent == size else {
                            throw SwitchyardError.invalidRequest(
                                "'\(path)' changed size while it was being sent (\(size) bytes announced, \(sent) read).")
                        }
                        return nil
                    }
                    return bytes[...]
                }
            }, length: .known(size), replayability: .replayable)
    }
}
