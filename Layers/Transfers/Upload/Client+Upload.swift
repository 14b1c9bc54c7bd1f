public import SwitchyardCore

extension Client {
    /// An upload of `body` to `request`'s target through this client's chain; call
    /// ``Upload/start()`` or await ``Upload/result()``.
    ///
    /// ```swift
    /// let upload = client.upload(try Request(method: .post, url: url), from: HTTPBody(bytes))
    /// let result = try await upload.result()
    /// ```
    /// - Parameters:
    ///   - request: The request that receives the upload (method, URL, header fields); its own
    ///     body is ignored.
    ///   - body: What to upload; replayable bodies can restart on servers without resumption.
    ///   - configuration: How the upload resumes.
    /// - Returns: The upload, not yet started.
    public func upload(
        _ request: Request, from body: HTTPBody, configuration: Upload.Configuration = Upload.Configuration()
    ) -> Upload {
        Upload(client: self, request: request, body: body, configuration: configuration)
    }

    /// An upload of the file at `path` (streamed from disk in constant memory, replayable).
    ///
    /// ```swift
    /// let upload = try client.upload(try Request(method: .post, url: url), fromFile: "movie.mp4")
    /// ```
    /// - Parameters:
    ///   - request: The request that receives the upload; its own body is ignored.
    ///   - path: The file to send.
    ///   - configuration: How the upload resumes.
    /// - Returns: The upload, not yet started.
    /// - Throws: `SwitchyardError.Kind.invalidRequest` when the file does not exist.
    public func upload(
        _ request: Request, fromFile path: String, configuration: Upload.Configuration = Upload.Configuration()
    ) throws(SwitchyardError) -> Upload {
        Upload(client: self, request: request, body: try .file(atPath: path), configuration: configuration)
    }
}
