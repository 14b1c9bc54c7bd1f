import ArgumentParser
import Crypto
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCache
import SwitchyardCookies
import SwitchyardObservability
import SwitchyardPostgres
import SwitchyardTransfers

extension RequestCommand {
    /// Sends the request, writes the head (`-i`, `-I`) and body where asked, then `-w`'s text, and exits
    /// with curl's number for how it went (``CurlExitCode``).
    func run() async throws {
        let started = ContinuousClock.now
        var outcome = ExchangeOutcome(transport: transport.rawValue, url: requestURL, startedAt: started)
        outcome.isCaching = cache != nil
        let bus = EventBus()
        let events = EventLog(observing: bus)
        let archive = HARRecorder()
        let lastURL = Lock<String?>(nil)
        var methodName = method ?? (head ? "HEAD" : "GET")
        let jar: CookieJar?
        var jarFailure: SwitchyardError?
        do {
            jar = try cookies.makeJar()
        } catch {
            jar = nil
            jarFailure = error
        }
        if !silent { tls.warnIfInsecure() }
        var sharedCache: PostgresSharedState?
        do {
            if let jarFailure { throw jarFailure }
            let (request, uploadProgress) = try makeRequest()
            methodName = request.head.method.rawValue
            if printCurl {
                print(request.curlCommand())
                return
            }
            let uploadPrinter = uploadProgress.map { progress in
                Task { await ProgressPrinter(label: "upload", interactive: ProgressPrinter.standardErrorIsTerminal).run(progress) }
            }
            try await transport.withTransport(
                proxy: try proxyConfiguration(), tls: try tls.options(),
                http1Only: http1_1, connectTimeout: connectTimeout.map { .milliseconds(Int64($0 * 1_000)) }
            ) { transport in
                var configuration = configuration(events: bus)
                configuration.attemptInterceptors.append(Self.recordingURL(into: lastURL))
                if har != nil { configuration.attemptInterceptors.append(archive.interceptor) }
                if let cache {
                    let (httpCache, shared) = try CacheArgument.cache(cache)
                    sharedCache = shared
                    configuration.plugins.append(.cache(httpCache))
                }
                if let jar { configuration.plugins.append(.cookies(jar)) }
                if let resolving = try resolve.plugin() { configuration.plugins.append(resolving) }
                let client = try Client(transport: transport, configuration: configuration)
                if let path = outputPath, !OutputSink.writesInPlace(path), !include, !head {
                    try await download(request, to: path, client: client, into: &outcome)
                } else {
                    let sink =
                        try outputPath.map { $0 == "-" ? OutputSink.standardOutput() : try OutputSink.file(atPath: $0) }
                        ?? OutputSink.standardOutput()
                    try await stream(request, client: client, to: sink, into: &outcome)
                }
            }
            // The upload has ended (its final update is out) once the response arrived.
            await uploadPrinter?.value
        } catch {
            outcome.error = SwitchyardError.wrapping(error)
        }
        await sharedCache?.shutdown()
        outcome.elapsed = started.duration(to: .now)
        outcome.effectiveURL = lastURL.withLock { $0 } ?? outcome.effectiveURL
        finish(&outcome, jar: jar, archive: archive, events: events)
        let code = CurlExitCode.code(for: outcome.error)
        if let writeOut, let format = try? WriteOut(argument: writeOut) {
            printWriteOut(format.expanded(for: outcome, method: methodName, exitCode: code))
        }
        if let error = outcome.error, !silent || showError {
            FileHandle.standardError.write(Data("yard: (\(code)) \(error.message)\n".utf8))
        }
        if code != 0 { throw ExitCode(code) }
    }

    /// Saves the cookie jar and the HAR file, and collects the events (printing the waterfall with `-v`).
    private func finish(_ outcome: inout ExchangeOutcome, jar: CookieJar?, archive: HARRecorder, events: EventLog) {
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
    }

    /// Prints `-w`'s pieces, each to standard output or standard error; a closed output is ignored.
    private func printWriteOut(_ pieces: [(text: String, toStandardError: Bool)]) {
        let standardOutput = OutputSink.standardOutput()
        for piece in pieces {
            if piece.toStandardError {
                FileHandle.standardError.write(Data(piece.text.utf8))
            } else {
                try? standardOutput.write(piece.text)
            }
        }
    }

    /// An attempt interceptor that keeps the URL of each request it sees (every redirect hop's), for
    /// `%{url_effective}`.
    private static func recordingURL(into lastURL: Lock<String?>) -> ClosureInterceptor {
        ClosureInterceptor(name: "EffectiveURL") { request, context, next in
            let head = request.head
            lastURL.withLock { $0 = "\(head.scheme ?? "http")://\(head.authority ?? "")\(head.path ?? "/")" }
            return try await next(request)
        }
    }

    /// Sends `request` and writes the head (`-i`, `-I`) and the body, as they arrive, to `sink`; the
    /// outcome counts and hashes the body bytes.
    private func stream(_ request: Request, client: Client, to sink: OutputSink, into outcome: inout ExchangeOutcome) async throws {
        let response = try await client.stream(request)
        outcome.head = response.head
        outcome.context = response.context
        if include || head {
            try sink.write(IncludedHead.text(response.head, version: response.context.timings.httpVersion))
        }
        var hasher = SHA256()
        defer {
            outcome.sha256 = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        }
        for try await chunk in response.body {
            hasher.update(data: chunk)
            outcome.bodyBytes += Int64(chunk.count)
            if !head { try sink.write(chunk) }
        }
    }

    /// Whether progress is shown: never with `-s`; else `--progress`, or standard error is a terminal.
    var showsProgress: Bool { !silent && (progress || ProgressPrinter.standardErrorIsTerminal) }

    /// Downloads to `path` through `FILE.part` (continuing it with `-C -`); the outcome's body
    /// figures then describe the whole file (or, when the download failed, the partial file).
    private func download(_ request: Request, to path: String, client: Client, into outcome: inout ExchangeOutcome) async throws {
        let download = client.download(request, to: path, configuration: Download.Configuration(resumesPartialFile: resuming))
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
}
