public import SwitchyardCore

extension Client {
    /// A download of `request`'s response to the file at `destination`, through this client's
    /// chain; call ``Download/start()`` or await ``Download/result()``.
    ///
    /// ```swift
    /// let result = try await client.download(try Request(method: .get, url: url), to: "big.iso").result()
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: The final path; bytes go to `destination + ".part"` until complete.
    ///   - configuration: Resume and verification settings.
    /// - Returns: The download, not yet started.
    public func download(
        _ request: Request, to destination: String,
        configuration: Download.Configuration = Download.Configuration()
    ) -> Download {
        Download(client: self, request: request, destination: destination, configuration: configuration)
    }
}
