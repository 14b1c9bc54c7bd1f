/// The per-request option that says stages are recorded after the response
/// (``RequestOptions/recordsStagesAfterResponse``).
public enum StagesAfterResponseKey: RequestOptionKey {
    /// `false`: every stage is in when the exchange ends.
    public static let defaultValue = false
}

extension RequestOptions {
    /// Whether the caller records stages after the response (``ExchangeContext/recordStage(_:_:)``,
    /// e.g. decoding the body into a model) and then calls ``ExchangeContext/finishRecordingStages()``:
    /// a link that completes a record per call (timing statistics) then waits for them. A record
    /// whose stages never finish is kept, without them, when the context ends.
    public var recordsStagesAfterResponse: Bool {
        get { self[StagesAfterResponseKey.self] }
        set { self[StagesAfterResponseKey.self] = newValue }
    }
}
