@_spi(Fuzzing) import SwitchyardCache
@_spi(Fuzzing) import SwitchyardCurl
@_spi(Fuzzing) import SwitchyardStandardLinks
@_spi(Fuzzing) import SwitchyardTesting

#if canImport(Glibc)
import Glibc
#endif

/// The parsers fuzzed, by the name `FUZZ_TARGET` selects (also the folder of their seed corpus).
enum FuzzTarget: String, CaseIterable {
    case curlHead = "curl-head"
    case retryAfter = "retry-after"
    case cacheControl = "cache-control"
    case location
    case recording

    /// Runs one input through the parser.
    func run(_ bytes: [UInt8]) {
        switch self {
        case .curlHead: CurlFuzzEntryPoints.responseHead(bytes)
        case .retryAfter: StandardLinksFuzzEntryPoints.retryAfter(String(decoding: bytes, as: UTF8.self))
        case .cacheControl: CacheFuzzEntryPoints.cacheControl(String(decoding: bytes, as: UTF8.self))
        case .location: StandardLinksFuzzEntryPoints.redirectLocation(String(decoding: bytes, as: UTF8.self))
        case .recording: RecordingFuzzEntryPoints.recording(bytes)
        }
    }

    /// The target named by the `FUZZ_TARGET` environment variable.
    static let selected: FuzzTarget = {
        guard let name = getenv("FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            print("Set FUZZ_TARGET to one of: \(names)")
            exit(64)
        }
        return target
    }()
}

/// libFuzzer's entry point: one input, any bytes; a crash or trap is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}
