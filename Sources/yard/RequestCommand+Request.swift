import ArgumentParser
import Foundation
import HTTPTypes
import Switchyard
import SwitchyardAPI
import SwitchyardCache
import SwitchyardTransfers

extension RequestCommand {
    /// curl's `Content-Type` for `-d` and `--data-binary` when no `-H` gives one.
    static let formURLEncoded = "application/x-www-form-urlencoded"

    /// The request the flags describe, and the progress of its upload when it is shown.
    func makeRequest() throws -> (Request, AsyncStream<TransferProgress>?) {
        var fields = try HeaderArguments.fields(headers)
        if let literal = cookies.literal { fields.append(HTTPField(name: .cookie, value: literal)) }
        // -H wins over -u, -A and -e, as in curl.
        if let user, fields[.authorization] == nil {
            let credentials = user.contains(":") ? user : user + ":"
            fields.append(HTTPField(name: .authorization, value: "Basic " + Data(credentials.utf8).base64EncodedString()))
        }
        if let userAgent, fields[.userAgent] == nil { fields.append(try HTTPField.validated(name: "User-Agent", value: userAgent)) }
        if let referer, fields[.referer] == nil { fields.append(try HTTPField.validated(name: "Referer", value: referer)) }
        var (body, contentType) = try makeBody()
        if jsonBody != nil, fields[.accept] == nil { fields.append(HTTPField(name: .accept, value: "application/json")) }
        if let contentType, fields[.contentType] == nil { fields.append(HTTPField(name: .contentType, value: contentType)) }
        var uploadProgress: AsyncStream<TransferProgress>?
        if let uploading = body, uploadsAFile, showsProgress {
            let (counted, progress) = uploading.withProgress()
            body = counted
            uploadProgress = progress
        }
        let methodName = method ?? (head ? "HEAD" : body == nil ? "GET" : "POST")
        guard let method = HTTPRequest.Method(methodName) else {
            throw SwitchyardError.invalidRequest("'\(methodName)' is not a valid method.")
        }
        var request = try Request(method: method, url: requestURL, body: body)
        request.head.headerFields.append(contentsOf: fields)
        request.options.timeout = timeout.map { .milliseconds(Int64($0 * 1_000)) }
        request.options.maxResponseBytes = maxBodyBytes
        if cache != nil { request.options.cachePolicy = cachePolicy.policy }
        if let writeOut, (try? WriteOut(argument: writeOut))?.needsConnectionEvents == true {
            request.options.publishesConnectionEvents = true
        }
        return (request, uploadProgress)
    }

    /// The body `-d`, `--data-binary`, `--data-file`, `--json` or `-F` gives, and the `Content-Type` curl
    /// sends with it unless `-H` names one.
    private func makeBody() throws -> (HTTPBody?, String?) {
        if !data.isEmpty {
            let parts = try data.map { argument -> String in
                guard argument.hasPrefix("@") else { return argument }
                // curl -d @file drops carriage returns and newlines.
                return String(decoding: try Self.contents(of: String(argument.dropFirst())), as: UTF8.self)
                    .filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" }
            }
            return (HTTPBody(parts.joined(separator: "&")), Self.formURLEncoded)
        }
        if let dataFile { return (try HTTPBody.file(atPath: dataFile), nil) }
        if let dataBinary {
            let body = dataBinary.hasPrefix("@") ? try HTTPBody.file(atPath: String(dataBinary.dropFirst())) : HTTPBody(dataBinary)
            return (body, Self.formURLEncoded)
        }
        if let jsonBody {
            let body = jsonBody.hasPrefix("@") ? HTTPBody(try Self.contents(of: String(jsonBody.dropFirst()))) : HTTPBody(jsonBody)
            return (body, "application/json")
        }
        if !formFields.isEmpty {
            let form = try FormArguments.form(formFields)
            return (try form.body(), form.contentType)
        }
        return (nil, nil)
    }

    /// Whether the body streams a file (`--data-file`, `--data-binary @path`, `-F name=@path`): its
    /// upload progress is then shown.
    private var uploadsAFile: Bool {
        dataFile != nil || dataBinary?.hasPrefix("@") == true || formFields.contains(where: { $0.contains("=@") })
    }

    /// The bytes of the file at `path` (`-`: standard input), for `-d @path` and `--json @path`.
    private static func contents(of path: String) throws(SwitchyardError) -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidRequest("Cannot read '\(path)'.")
        }
        return Array(data)
    }

    /// The proxies `-x`, `--noproxy` and the environment ask for, as curl combines them.
    func proxyConfiguration() throws(SwitchyardError) -> ProxyConfiguration? {
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
    func configuration(events: EventBus) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            events: events,
            redirects: redirectLimit > 0 ? RedirectPolicy(maxRedirects: redirectLimit) : nil,
            retry: retries > 0 ? RetryPolicy(maxAttempts: retries + 1) : nil)
        if fail { configuration.validation = StatusValidation(accepted: 100..<400) }
        return configuration
    }

    /// How many redirects are followed: `--max-redirs`, else 50 with `-L` (curl's limit), else none.
    private var redirectLimit: Int { maxRedirects ?? (location ? 50 : 0) }
}
