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

/// `yard request`: one request through the full client, printed like a friendly curl or as JSON.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send one request through the Switchyard client.",
        discussion: """
            Exit status: 0 when an HTTP response was received (whatever its status), 1 on an error \
            (with --json the JSON is still printed), 64 on bad command-line usage.
            """
    )

    @Argument(help: "The absolute http or https URL.")
    var url: String

    @Option(name: [.customShort("X"), .customLong("request")], help: "The method (default GET, or POST with a body).")
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

    @Option(name: [.customShort("d"), .customLong("data")], help: "Send this text as the body.")
    var data: String?

    @Option(name: .customLong("data-file"), help: "Stream this file as the body.")
    var dataFile: String?

    @Option(
        name: .customLong("data-binary"),
        help: ArgumentHelp(
            "Send this text as the body, or stream the file @path, byte for byte (curl's form).", valueName: "text|@path"))
    var dataBinary: String?

    @Option(help: "The transport: \(TransportChoice.names).")
    var transport: TransportChoice = .curl

    @Option(
        name: [.customLong("timeout"), .customShort("m"), .customLong("max-time")],
        help: "Seconds the whole exchange may take.")
    var timeout: Double?

    @Option(name: .customLong("max-body-bytes"), help: "Fail with responseTooLarge past this many body bytes.")
    var maxBodyBytes: Int64?

    @Option(help: "Stream the body to FILE.part, then rename it to this file once complete and verified.")
    var output: String?

    @Flag(help: "With --output: continue FILE.part left by an interrupted download (Range/If-Range).")
    var resume = false

    @Option(name: .customShort("F"), help: "A multipart form field 'name=value', or a file 'name=@path[;type=mime]'; repeatable.")
    var formFields: [String] = []

    @Flag(help: "Show progress of --output downloads and file uploads on standard error even when it is not a terminal.")
    var progress = false

    @Option(help: "Retry a failed attempt up to N times (idempotent methods, or with an Idempotency-Key header).")
    var retries = 0

    @Option(name: .customLong("max-redirects"), help: "Follow up to N redirects (default 0: return them; 50 with -L).")
    var maxRedirects: Int?

    @Flag(name: [.customShort("L"), .customLong("location")], help: "Follow redirects (up to --max-redirects, 50 by default), as curl -L.")
    var location = false

    @Flag(help: "Accepted for curl's sake: gzip and deflate responses are always asked for and decoded.")
    var compressed = false

    @Flag(name: .customLong("print-curl"), help: "Print the request as a curl command, credentials redacted, and exit without sending it.")
    var printCurl = false

    @Flag(help: "Turn a status of 400 or more into an httpStatus error.")
    var fail = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Print the exchange's events and timings as a waterfall (on standard error).")
    var verbose = false

    @Flag(help: "Print one JSON object describing the exchange.")
    var json = false

    @Option(help: "Write the exchange (every attempt, with its timings) as an HTTP Archive to this path.")
    var har: String?

    @Option(
        help: ArgumentHelp(
            "Send through this HTTP proxy: [http://][user:password@]host[:port] (port 1080 by default).",
            discussion: "Without it the proxy comes from http_proxy, https_proxy/HTTPS_PROXY and"
                + " all_proxy/ALL_PROXY, as curl reads them (upper-case HTTP_PROXY is ignored); --proxy ''"
                + " sends direct."))
    var proxy: String?

    @Option(
        name: .customLong("noproxy"), help: "Comma-separated hosts that bypass the proxy, as NO_PROXY (which it replaces); '*' for all.")
    var noProxy: String?

    @Option(help: "Cache responses in this directory (RFC 9111; several processes may share it).")
    var cache: String?

    @Option(name: .customLong("cache-policy"), help: "With --cache: standard, stale-if-error or cache-only (default standard).")
    var cachePolicy: CachePolicyArgument = .standard

    @OptionGroup(title: "TLS")
    var tls: TLSArguments

    @Flag(name: .customLong("http1.1"), help: "Speak HTTP/1.1 even where TLS could negotiate HTTP/2 (not on urlsession).")
    var http1_1 = false

    @Flag(name: .customLong("http2"), help: "Prefer HTTP/2 over TLS when the server offers it (the default).")
    var http2 = false

    func validate() throws {
        if [data != nil, dataFile != nil, dataBinary != nil, !formFields.isEmpty].filter({ $0 }).count > 1 {
            throw ValidationError("Give only one of -d, --data-binary, --data-file and -F.")
        }
        if resume, output == nil { throw ValidationError("--resume needs --output.") }
        for field in formFields where !field.contains("=") {
            throw ValidationError("-F '\(field)' is not 'name=value' or 'name=@path'.")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds.") }
        if let maxBodyBytes, maxBodyBytes < 0 { throw ValidationError("--max-body-bytes must not be negative.") }
        if retries < 0 || (maxRedirects ?? 0) < 0 { throw ValidationError("--retries and --max-redirects must not be negative.") }
        if let method, HTTPRequest.Method(method) == nil { throw ValidationError("'\(method)' is not a valid method.") }
        if http1_1, http2 { throw ValidationError("Give only one of --http1.1 and --http2.") }
        if cache == nil, cachePolicy != .standard { throw ValidationError("--cache-policy needs --cache DIR.") }
    }

    func run() async throws {
        let started = ContinuousClock.now
        var outcome = ExchangeOutcome(transport: transport.rawValue, startedAt: started)
        outcome.isCaching = cache != nil
        let bus = EventBus()
        let events = EventLog(observing: bus)
        let archive = HARRecorder()
        let jar: CookieJar?
        var jarFailure: SwitchyardError?
        do {
            jar = try cookies.makeJar()
        } catch {
            jar = nil
            jarFailure = error
        }
        tls.warnIfInsecure()
        do {
            if let jarFailure { throw jarFailure }
            let (request, uploadProgress) = try makeRequest()
            if printCurl {
                print(request.curlCommand())
                return
            }
            let uploadPrinter = uploadProgress.map { progress in
                Task { await ProgressPrinter(label: "upload", interactive: ProgressPrinter.standardErrorIsTerminal).run(progress) }
            }
            try await transport.withTransport(
                proxy: try proxyConfiguration(), tls: try tls.options(),
                http1Only: http1_1
            ) { transport in
                var configuration = configuration(events: bus)
                if har != nil { configuration.attemptInterceptors.append(archive.interceptor) }
                if let cache {
                    configuration.plugins.append(CachePlugin.make(cache: HTTPCache(store: try DiskCacheStore(directory: cache))))
                }
                if let jar { configuration.plugins.append(CookiePlugin.make(jar: jar)) }
                let client = try Client(transport: transport, configuration: configuration)
                if let output {
                    try await download(request, to: output, client: client, into: &outcome)
                } else {
                    let response = try await client.stream(request)
                    outcome.head = response.head
                    outcome.context = response.context
                    try await receive(response.body, into: &outcome)
                }
            }
            // The upload has ended (its final update is out) once the response arrived.
            await uploadPrinter?.value
        } catch {
            outcome.error = SwitchyardError.wrapping(error)
        }
        outcome.elapsed = started.duration(to: .now)
        do {
            try cookies.save(jar)
        } catch {
            outcome.error = outcome.error ?? error
        }
        if let har {
            do {
                try archive.write(to: URL(fileURLWithPath: har))
            } catch {
                outcome.error = outcome.error ?? .invalidRequest("Cannot write the HAR file '\(har)': \(error).")
            }
        }
        outcome.events = events.all
        if verbose { outcome.printWaterfall() }
        if json {
            print(outcome.json.description)
        } else {
            outcome.printSummary()
        }
        if outcome.error != nil { throw ExitCode(1) }
    }

    /// The proxies `--proxy`, `--noproxy` and the environment ask for, as curl combines them.
    private func proxyConfiguration() throws(SwitchyardError) -> ProxyConfiguration? {
        var configuration: ProxyConfiguration?
        if let proxy {
            configuration = proxy.isEmpty ? nil : try ProxyConfiguration(url: proxy)
        } else {
            configuration = try ProxyConfiguration.fromEnvironment()
        }
        if let noProxy { configuration?.noProxy = NoProxyList(noProxy) }
        return configuration
    }

    /// The chain the flags ask for: events always; redirects, retry and status validation on request.
    private func configuration(events: EventBus) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            events: events,
            redirects: redirectLimit > 0 ? RedirectPolicy(maxRedirects: redirectLimit) : nil,
            retry: retries > 0 ? RetryPolicy(maxAttempts: retries + 1) : nil)
        if fail { configuration.validation = StatusValidation(accepted: 100..<400) }
        return configuration
    }

    /// `-b` and `-c`.
    private var cookies: CookieArguments { CookieArguments(cookie: cookie, cookieJar: cookieJar) }

    /// How many redirects are followed: `--max-redirects`, else 50 with `-L` (curl's limit), else none.
    private var redirectLimit: Int { maxRedirects ?? (location ? 50 : 0) }

    /// The request the flags describe, and the progress of its upload when it is shown.
    private func makeRequest() throws -> (Request, AsyncStream<TransferProgress>?) {
        var fields = try HeaderArguments.fields(headers)
        if let literal = cookies.literal { fields.append(HTTPField(name: .cookie, value: literal)) }
        var body: HTTPBody?
        if let data { body = HTTPBody(data) }
        if let dataFile { body = try HTTPBody.file(atPath: dataFile) }
        if let dataBinary {
            body = dataBinary.hasPrefix("@") ? try HTTPBody.file(atPath: String(dataBinary.dropFirst())) : HTTPBody(dataBinary)
        }
        if !formFields.isEmpty {
            let form = try FormArguments.form(formFields)
            body = try form.body()
            if !fields.contains(where: { $0.name == .contentType }) {
                fields.append(HTTPField(name: .contentType, value: form.contentType))
            }
        }
        var uploadProgress: AsyncStream<TransferProgress>?
        if let uploading = body, dataFile != nil || dataBinary?.hasPrefix("@") == true || formFields.contains(where: { $0.contains("=@") }),
            showsProgress
        {
            let (counted, progress) = uploading.withProgress()
            body = counted
            uploadProgress = progress
        }
        let methodName = method ?? (body == nil ? "GET" : "POST")
        guard let method = HTTPRequest.Method(methodName) else {
            throw SwitchyardError.invalidRequest("'\(methodName)' is not a valid method.")
        }
        var request = try Request(method: method, url: url, body: body)
        request.head.headerFields.append(contentsOf: fields)
        request.options.timeout = timeout.map { .milliseconds(Int64($0 * 1_000)) }
        request.options.maxResponseBytes = maxBodyBytes
        if cache != nil { request.options.cachePolicy = cachePolicy.policy }
        return (request, uploadProgress)
    }

    /// Whether progress is shown: `--progress`, or standard error is a terminal.
    private var showsProgress: Bool { progress || ProgressPrinter.standardErrorIsTerminal }

    /// Downloads to `path` through `FILE.part` (continuing it with `--resume`); the outcome's body
    /// figures then describe the whole file (or, when the download failed, the partial file).
    private func download(_ request: Request, to path: String, client: Client, into outcome: inout ExchangeOutcome) async throws {
        let download = client.download(request, to: path, configuration: Download.Configuration(resumesPartialFile: resume))
        var printing: Task<Void, Never>?
        if showsProgress {
            let printer = ProgressPrinter(label: "download", interactive: ProgressPrinter.standardErrorIsTerminal)
            let updates = download.progress
            printing = Task { await printer.run(updates) }
        }
        do {
            let result = try await download.result()
            await printing?.value
            outcome.head = result.head
            outcome.context = download.lastExchangeContext
            outcome.resumedFrom = result.resumedFrom
            try describeFile(at: path, into: &outcome)
        } catch {
            await printing?.value
            outcome.head = download.lastResponseHead
            outcome.context = download.lastExchangeContext
            try? describeFile(at: download.partialPath, into: &outcome)
            throw error
        }
    }

    /// Sets the outcome's byte count and SHA-256 from the file at `path`, read 1 MiB at a time.
    private func describeFile(at path: String, into outcome: inout ExchangeOutcome) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        var hasher = SHA256()
        var count: Int64 = 0
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            hasher.update(data: data)
            count += Int64(data.count)
        }
        outcome.bodyBytes = count
        outcome.sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Streams the body into the hash and to stdout, or nowhere (`--json`).
    private func receive(_ body: HTTPBody, into outcome: inout ExchangeOutcome) async throws {
        var hasher = SHA256()
        defer {
            outcome.sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
        for try await chunk in body {
            hasher.update(data: chunk)
            outcome.bodyBytes += Int64(chunk.count)
            if !json {
                outcome.printedBody.append(contentsOf: chunk)
            }
        }
    }
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
