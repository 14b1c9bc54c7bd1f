import ArgumentParser
import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCache
import SwitchyardCookies
import SwitchyardObservability
import SwitchyardTransfers

/// `yard request`: one request through the full client, with curl's habits: the body alone on standard
/// output as raw bytes, streamed; the head with `-i`; a report with `-w '%{json}'`; curl's exit codes.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request through the Switchyard client, as curl would.",
        discussion: """
            The response body goes to standard output (or -o FILE) byte for byte, as it arrives; nothing \
            else does unless -i or -w asks. Errors go to standard error as 'yard: (N) message', N being \
            the exit status.

            \(CurlExitCode.table)
            """
    )

    @Argument(help: "The URL; one without a scheme is taken as http://.")
    var url: String

    @Option(name: [.customShort("X"), .customLong("request")], help: "The method (default GET, HEAD with -I, POST with a body).")
    var method: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: "A header 'Name: value'; repeatable.")
    var headers: [String] = []

    @Option(
        name: [.customShort("b"), .customLong("cookie")],
        help: "Send cookies: 'name=value; name2=value2' as given, or read a cookie FILE (Netscape format, as curl writes) into the jar.")
    var cookie: String?

    @Option(
        name: [.customShort("c"), .customLong("cookie-jar")],
        help: "Write every cookie of the jar to this file afterwards (Netscape format; '-' for standard output).")
    var cookieJar: String?

    @Option(
        name: [.customShort("d"), .customLong("data")],
        help: ArgumentHelp(
            "Send this text, or the file @path without its line breaks, as the body; repeatable (joined with '&')."
                + " Content-Type application/x-www-form-urlencoded unless -H gives one, as curl.",
            valueName: "data"))
    var data: [String] = []

    @Option(name: .customLong("data-file"), help: "Stream this file as the body.")
    var dataFile: String?

    @Option(
        name: .customLong("data-binary"),
        help: ArgumentHelp(
            "Send this text as the body, or stream the file @path, byte for byte (curl's form; -d's Content-Type).",
            valueName: "text|@path"))
    var dataBinary: String?

    @Option(
        name: .customLong("json"),
        help: ArgumentHelp(
            "Send this JSON text, or the file @path, as the body with Content-Type and Accept application/json (curl's --json).",
            valueName: "data"))
    var jsonBody: String?

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(
        name: [.customShort("m"), .customLong("max-time"), .customLong("timeout")],
        help: "Seconds the whole exchange may take.")
    var timeout: Double?

    @Option(
        name: .customLong("connect-timeout"),
        help: "Seconds a connection may take to establish (curl and ahc; urlsession on Linux cannot be told: -m bounds it).")
    var connectTimeout: Double?

    @Option(
        name: [.customLong("max-filesize"), .customLong("max-body-bytes")],
        help: "Fail (exit 63) past this many body bytes.")
    var maxBodyBytes: Int64?

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write the body to this file ('-': standard output): through FILE.part, renamed once complete and verified;"
                + " a device or pipe such as /dev/null is written in place."))
    var output: String?

    @Flag(name: [.customShort("O"), .customLong("remote-name")], help: "Write the body to a file named as the URL's last path segment.")
    var remoteName = false

    @Option(
        name: [.customShort("C"), .customLong("continue-at")],
        help: ArgumentHelp("'-': continue FILE.part left by an interrupted -o/-O download (Range/If-Range).", valueName: "-"))
    var continueAt: String?

    @Flag(help: "With -o: continue FILE.part left by an interrupted download (yard's spelling of -C -).")
    var resume = false

    @Flag(name: [.customShort("i"), .customLong("include")], help: "Print the response head (status line and fields) before the body.")
    var include = false

    @Flag(name: [.customShort("I"), .customLong("head")], help: "Send HEAD and print the response head only.")
    var head = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "Print no progress, warnings or error messages.")
    var silent = false

    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s: still print error messages.")
    var showError = false

    @Option(
        name: [.customShort("u"), .customLong("user")],
        help: ArgumentHelp("Basic authentication (a missing password is empty).", valueName: "user:password"))
    var user: String?

    @Option(name: [.customShort("A"), .customLong("user-agent")], help: "The User-Agent header.")
    var userAgent: String?

    @Option(name: [.customShort("e"), .customLong("referer")], help: "The Referer header.")
    var referer: String?

    @Option(
        name: [.customShort("w"), .customLong("write-out")],
        help: ArgumentHelp(
            "Print this after the transfer, with %{variable} replaced ('@FILE' reads it from FILE): \(WriteOut.variables).",
            valueName: "format"))
    var writeOut: String?

    @Option(name: .customShort("F"), help: "A multipart form field 'name=value', or a file 'name=@path[;type=mime]'; repeatable.")
    var formFields: [String] = []

    @Flag(help: "Show progress of -o downloads and file uploads on standard error even when it is not a terminal.")
    var progress = false

    @Option(help: "Retry a failed attempt up to N times (idempotent methods, or with an Idempotency-Key header).")
    var retries = 0

    @Option(
        name: [.customLong("max-redirs"), .customLong("max-redirects")],
        help: "Follow up to N redirects (default 0: return them; 50 with -L); more fail with exit 47.")
    var maxRedirects: Int?

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Follow redirects (up to --max-redirs, 50 by default), as curl -L.")
    var location = false

    @Flag(help: "Accepted for curl's sake: gzip and deflate responses are always asked for and decoded.")
    var compressed = false

    @Flag(name: .customLong("print-curl"), help: "Print the request as a curl command, credentials redacted, and exit without sending it.")
    var printCurl = false

    @Flag(name: [.customShort("f"), .customLong("fail")], help: "Fail (exit 22, no body printed) on a status of 400 or more.")
    var fail = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Print the exchange's events and timings as a waterfall (on standard error).")
    var verbose = false

    @Option(help: "Write the exchange (every attempt, with its timings) as an HTTP Archive to this path.")
    var har: String?

    @Option(
        name: [.customShort("x"), .customLong("proxy")],
        help: ArgumentHelp(
            "Send through this HTTP proxy: [http://][user:password@]host[:port] (port 1080 by default).",
            discussion: "Without it the proxy comes from http_proxy, https_proxy/HTTPS_PROXY and"
                + " all_proxy/ALL_PROXY, as curl reads them (upper-case HTTP_PROXY is ignored); --proxy ''"
                + " sends direct."))
    var proxy: String?

    @Option(
        name: .customLong("noproxy"), help: "Comma-separated hosts that bypass the proxy, as NO_PROXY (which it replaces); '*' for all.")
    var noProxy: String?

    @Option(
        help: """
            Cache responses (RFC 9111) in this directory (several processes may share it), or in the \
            PostgreSQL database at postgres://user@host:port/database that a fleet shares.
            """)
    var cache: String?

    @Option(name: .customLong("cache-policy"), help: "With --cache: standard, stale-if-error or cache-only (default standard).")
    var cachePolicy: CachePolicyArgument = .standard

    @OptionGroup(title: "TLS")
    var tls: TLSArguments

    @OptionGroup(title: "Name resolution")
    var resolve: ResolveArguments

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 even where TLS could negotiate HTTP/2 (not on urlsession).")
    var http1_1 = false

    @Flag(name: .customLong("http2"), help: "Prefer HTTP/2 over TLS when the server offers it (the default).")
    var http2 = false

    /// Refuses combinations curl refuses or yard cannot honour (exit status 64).
    func validate() throws {
        let bodies = [!data.isEmpty, dataFile != nil, dataBinary != nil, jsonBody != nil, !formFields.isEmpty]
        if bodies.filter({ $0 }).count > 1 {
            throw ValidationError("Give only one of -d, --data-binary, --data-file, --json and -F.")
        }
        if let continueAt, continueAt != "-" {
            throw ValidationError("-C takes '-' only (continue where FILE.part ends), not an offset.")
        }
        if output != nil, remoteName { throw ValidationError("Give only one of -o and -O.") }
        if resuming, outputPath == nil || outputPath == "-" { throw ValidationError("-C - and --resume need -o FILE or -O.") }
        if resuming, include || head { throw ValidationError("-C - and --resume write the body alone; drop -i or -I.") }
        if remoteName, remoteFileName == nil { throw ValidationError("-O: the URL has no file name to write to; use -o FILE.") }
        for field in formFields where !field.contains("=") {
            throw ValidationError("-F '\(field)' is not 'name=value' or 'name=@path'.")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--max-time must be a positive number of seconds.") }
        if let connectTimeout, !(connectTimeout > 0) {
            throw ValidationError("--connect-timeout must be a positive number of seconds.")
        }
        if let maxBodyBytes, maxBodyBytes < 0 { throw ValidationError("--max-filesize must not be negative.") }
        if retries < 0 || (maxRedirects ?? 0) < 0 { throw ValidationError("--retries and --max-redirs must not be negative.") }
        if let method, HTTPRequest.Method(method) == nil { throw ValidationError("'\(method)' is not a valid method.") }
        if http1_1, http2 { throw ValidationError("Give only one of --http1.1 and --http2.") }
        if cache == nil, cachePolicy != .standard { throw ValidationError("--cache-policy needs --cache DIR|URL.") }
        if let writeOut {
            do throws(SwitchyardError) { _ = try WriteOut(argument: writeOut) } catch { throw ValidationError(error.message) }
        }
    }

    /// `-C -` or `--resume`.
    var resuming: Bool { resume || continueAt == "-" }

    /// The file `-o` or `-O` names, if either does (`-` for standard output).
    var outputPath: String? { output ?? (remoteName ? remoteFileName : nil) }

    /// The URL as sent: one without a scheme gets `http://`, as curl assumes.
    var requestURL: String { url.contains("://") ? url : "http://" + url }

    /// `-O`'s file name: the URL path's last segment, as it appears in the URL (`nil` when empty).
    var remoteFileName: String? {
        guard let path = URLComponents(string: requestURL)?.percentEncodedPath,
            let name = path.split(separator: "/", omittingEmptySubsequences: false).last, !name.isEmpty,
            name != ".", name != ".."
        else { return nil }
        return String(name)
    }

    /// `-b` and `-c`.
    var cookies: CookieArguments { CookieArguments(cookie: cookie, cookieJar: cookieJar) }
}

/// The `--cache-policy` values.
enum CachePolicyArgument: String, ExpressibleByArgument, CaseIterable {
    case standard
    case staleIfError = "stale-if-error"
    case cacheOnly = "cache-only"

    /// The cache plugin's policy of this name.
    var policy: CachePolicy {
        switch self {
        case .standard: .standard
        case .staleIfError: .staleIfError
        case .cacheOnly: .cacheOnly
        }
    }
}
