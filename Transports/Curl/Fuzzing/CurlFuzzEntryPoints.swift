/// Entry points for the fuzzers in `Fuzz/`: curl's head framing and header parsing, with arbitrary
/// bytes. Not API: `@_spi(Fuzzing)` only.
@_spi(Fuzzing)
public enum CurlFuzzEntryPoints {
    /// Parses a response head block (status line and header lines) as the curl transport does.
    public static func responseHead(_ bytes: [UInt8]) {
        _ = try? CurlHeaderParser.parseHead(bytes)
    }
}
