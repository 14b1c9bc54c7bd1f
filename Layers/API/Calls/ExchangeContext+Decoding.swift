public import SwitchyardCore

extension PipelineTimings {
    /// The stage the API layer records after the response: decoding the body into the call's value.
    public static let decodingStage = "decoding"
}

extension ExchangeContext {
    /// Records the time spent decoding the body into a model as the `decoding` stage, and ends the
    /// stages recorded after the response.
    func recordDecoding(_ duration: Duration) {
        recordStage(PipelineTimings.decodingStage, duration)
        finishRecordingStages()
    }
}
