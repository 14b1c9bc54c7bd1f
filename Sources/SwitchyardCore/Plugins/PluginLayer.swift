extension Plugin {
    /// The stage of the chain a plugin's links sit in: the one place that orders the stages.
    ///
    /// Plugins of one ``ChainPosition`` are ordered by stage, outermost first; within a stage by
    /// registration order, each ``Placement``, and the ``Relation``s the plugins state (a plugin
    /// that must sit outside another of its stage is moved before it). Pick the stage that says what
    /// your links do; state a relation when you depend on another plugin's place.
    ///
    /// Call position, outermost first: ``outermost``, ``measuring``, ``admission``, ``appDefaults``
    /// (what the app sets on every request), ``outer``, ``department`` (the default: department plugins and the
    /// app's interceptors), ``inner``, ``holding``, ``recording``, ``checking``, ``resending``.
    /// Attempt position: the app's attempt interceptors after the ``department`` plugins, then
    /// ``nextToTransport``.
    public struct Layer: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The stage's place: lower is outer (sees the request first and the response last).
        let rank: Int
        /// The stage's name.
        let name: String

        private init(_ name: String, rank: Int) {
            self.name = name
            self.rank = rank
        }

        /// Sees a call before every other link and its end after all of them: registries of the
        /// calls in flight.
        public static let outermost = Layer("outermost", rank: -20_000)
        /// Measures the whole call, everything inside it included.
        public static let measuring = Layer("measuring", rank: -10_000)
        /// May refuse a call, or an attempt, before any department's link runs.
        public static let admission = Layer("admission", rank: -1_000)
        /// What the app sets on every request before any department's link sees it (its default
        /// header fields).
        public static let appDefaults = Layer("appDefaults", rank: -500)
        /// Sees every department's work.
        public static let outer = Layer("outer", rank: -100)
        /// Department plugins and the app's interceptors.
        public static let department = Layer("department", rank: 0)
        /// Shapes the exchange below the departments, e.g. one exchange shared by identical calls.
        public static let inner = Layer("inner", rank: 100)
        /// Holds a call until it may go, outside every link that sends it again.
        public static let holding = Layer("holding", rank: 900)
        /// Records each exchange that passes (log lines, metrics).
        public static let recording = Layer("recording", rank: 1_000)
        /// Judges the response (its status, its size) before anything sends the request again.
        public static let checking = Layer("checking", rank: 2_000)
        /// Sends the request again (another location, another attempt): the innermost call links,
        /// so each new attempt runs every attempt link.
        public static let resending = Layer("resending", rank: 2_200)
        /// The last attempt links, right before the transport: what holds a connection's worth of
        /// resources only while the exchange is on the wire.
        public static let nextToTransport = Layer("nextToTransport", rank: 10_000)

        /// Compares stages: outer first.
        public static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rank < rhs.rank }

        /// The stage's name, e.g. `department`.
        public var description: String { name }
    }
}
