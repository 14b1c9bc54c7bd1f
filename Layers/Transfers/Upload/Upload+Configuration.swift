extension Upload {
    /// How an ``Upload`` finds out whether the server can resume it, and how it reacts to an
    /// interrupted exchange.
    ///
    /// ```swift
    /// var configuration = Upload.Configuration()
    /// configuration.resumption = .assumeSupported   // skip the OPTIONS request: the server is known
    /// configuration.automaticResumes = 5
    /// ```
    public struct Configuration: Sendable {
        /// Whether the upload uses the resumable-upload protocol.
        public enum Resumption: Sendable, Hashable {
            /// Asks the target first (`OPTIONS`): when its `Accept-Patch` lists
            /// `application/partial-upload`, the upload is resumable; otherwise it is a plain request.
            case discover
            /// Uses the protocol without asking: for a server known to support it.
            case assumeSupported
            /// Never uses the protocol: one plain request; resuming starts again from zero.
            case disabled
        }

        /// The default number of automatic resumptions after an interrupted exchange: 3.
        public static let defaultAutomaticResumes = 3
        /// The default part of a single-use body kept after sending it: 8 MiB.
        public static let defaultKeptStreamBytes = 8 << 20

        /// Whether and how the upload becomes resumable; ``Resumption/discover`` by default.
        public var resumption: Resumption
        /// How many times a resumable upload continues by itself after an exchange that ended without
        /// a final answer (a lost connection) or with a `5xx`; ``defaultAutomaticResumes`` by default.
        public var automaticResumes: Int
        /// Whether ``Upload/cancel()`` asks the server to delete the upload resource (`DELETE`), so it
        /// can release what it stored; `true` by default.
        public var deletesUploadOnCancel: Bool
        /// How many bytes of a single-use body (a stream) a resumable upload keeps after reading
        /// them, at least: it continues from the server's offset when that lies within them. The
        /// offset lags behind what was read by what sat in buffers when the exchange ended (a few
        /// MiB at most on loopback); ``defaultKeptStreamBytes`` by default. Files and replayable
        /// bodies are read again instead and keep nothing.
        public var keptStreamBytes: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - resumption: Whether and how the upload becomes resumable.
        ///   - automaticResumes: Resumptions after interrupted exchanges.
        ///   - deletesUploadOnCancel: Whether cancelling deletes the upload resource.
        ///   - keptStreamBytes: The bytes of a single-use body kept to resume from.
        public init(
            resumption: Resumption = .discover, automaticResumes: Int = Self.defaultAutomaticResumes,
            deletesUploadOnCancel: Bool = true, keptStreamBytes: Int = Self.defaultKeptStreamBytes
        ) {
            self.resumption = resumption
            self.automaticResumes = automaticResumes
            self.deletesUploadOnCancel = deletesUploadOnCancel
            self.keptStreamBytes = keptStreamBytes
        }
    }
}
