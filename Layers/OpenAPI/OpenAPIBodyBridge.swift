import OpenAPIRuntime
import SwitchyardCore

/// Converts bodies between swift-openapi-runtime and Switchyard without buffering: each side
/// pulls the other's chunks one at a time, and the known length and the iteration behaviour
/// (`.multiple` ⇔ `.replayable`, `.single` ⇔ `.singleUse`) carry over.
enum OpenAPIBodyBridge {
    /// A Switchyard body that streams `body`'s chunks.
    static func switchyard(_ body: OpenAPIRuntime.HTTPBody) -> SwitchyardCore.HTTPBody {
        let length: SwitchyardCore.HTTPBody.Length =
            switch body.length {
            case .known(let count): .known(count)
            case .unknown: .unknown
            }
        let replayability: SwitchyardCore.HTTPBody.Replayability =
            switch body.iterationBehavior {
            case .multiple: .replayable
            case .single: .singleUse
            }
        return SwitchyardCore.HTTPBody(body, length: length, replayability: replayability)
    }

    /// An OpenAPI body that streams `body`'s chunks; an in-memory body stays in memory.
    static func openAPI(_ body: SwitchyardCore.HTTPBody) -> OpenAPIRuntime.HTTPBody {
        if let bytes = body.bufferedBytes { return OpenAPIRuntime.HTTPBody(bytes) }
        let length: OpenAPIRuntime.HTTPBody.Length =
            switch body.length {
            case .known(let count): .known(count)
            case .unknown: .unknown
            }
        let behavior: IterationBehavior =
            switch body.replayability {
            case .replayable: .multiple
            case .singleUse: .single
            }
        return OpenAPIRuntime.HTTPBody(body, length: length, iterationBehavior: behavior)
    }
}
