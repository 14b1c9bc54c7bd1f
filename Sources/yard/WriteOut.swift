import Foundation
import Switchyard
import SwitchyardJSON

/// `-w/--write-out FORMAT`: text printed after the transfer, as curl prints it.
///
/// `%{name}` is replaced by a variable, `%%` is a `%`, and `\n`, `\r`, `\t` and `\\` are the control
/// characters they name; `@FILE` reads the format from a file. `%{stderr}` and `%{stdout}` switch
/// where the rest goes. An unknown variable prints nothing (and a warning on standard error).
struct WriteOut {
    /// The variables `-w` knows, for the help text.
    static let variables =
        "http_code, response_code, time_namelookup, time_connect, time_appconnect, time_pretransfer,"
        + " time_starttransfer, time_total, num_connects, size_download, speed_download, remote_ip, remote_port,"
        + " url_effective, num_redirects, http_version, content_type, method, exitcode, errormsg,"
        + " json (the exchange report), stdout, stderr"

    /// The format as given (after `@FILE` was read).
    let format: String

    /// The variables AsyncHTTPClient reports only for a request that asks for connection events
    /// (`RequestOptions.publishesConnectionEvents`).
    private static let connectionVariables = [
        "time_connect", "time_appconnect", "time_pretransfer", "num_connects", "remote_ip", "remote_port"
    ]

    /// Whether the format names a connection variable: the request then asks for connection events,
    /// so that every transport that can tell reports them.
    var needsConnectionEvents: Bool {
        Self.connectionVariables.contains { format.contains("%{\($0)}") }
    }

    /// The format `-w` gives: the argument itself, or the contents of the file `@FILE` names.
    /// - Parameter argument: The `-w` argument.
    /// - Throws: ``SwitchyardError/Kind/invalidRequest`` when `@FILE` cannot be read.
    init(argument: String) throws(SwitchyardError) {
        guard argument.hasPrefix("@") else {
            format = argument
            return
        }
        let path = String(argument.dropFirst())
        do {
            format = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .invalidRequest("-w '\(argument)': cannot read '\(path)': \(error.localizedDescription)")
        }
    }

    /// The format expanded for `outcome`, in pieces: each with whether it goes to standard error.
    /// - Parameters:
    ///   - outcome: The finished exchange.
    ///   - method: The request's method.
    ///   - exitCode: The status `yard` exits with.
    /// - Returns: The text for standard output and for standard error, in order.
    func expanded(for outcome: ExchangeOutcome, method: String, exitCode: Int32) -> [(text: String, toStandardError: Bool)] {
        var pieces: [(text: String, toStandardError: Bool)] = []
        var current = ""
        var toStandardError = false
        var rest = Substring(format)
        while let first = rest.first {
            if first == "%", rest.dropFirst().first == "%" {
                current += "%"
                rest = rest.dropFirst(2)
            } else if first == "%", rest.dropFirst().first == "{", let close = rest.firstIndex(of: "}") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                rest = rest[rest.index(after: close)...]
                if name == "stdout" || name == "stderr" {
                    pieces.append((current, toStandardError))
                    current = ""
                    toStandardError = name == "stderr"
                } else if let value = Self.value(of: name, outcome: outcome, method: method, exitCode: exitCode) {
                    current += value
                } else {
                    FileHandle.standardError.write(Data("yard: warning: unknown --write-out variable: '\(name)'\n".utf8))
                }
            } else if first == "\\", let escaped = rest.dropFirst().first, let control = Self.escapes[escaped] {
                current += control
                rest = rest.dropFirst(2)
            } else {
                current.append(first)
                rest = rest.dropFirst()
            }
        }
        pieces.append((current, toStandardError))
        return pieces.filter { !$0.text.isEmpty }
    }

    /// `\n`, `\r`, `\t` and `\\`.
    private static let escapes: [Character: String] = ["n": "\n", "r": "\r", "t": "\t", "\\": "\\"]

    /// The variable's text, or `nil` for a name `-w` does not know.
    ///
    /// The timing variables are curl's, in curl's form (seconds with six decimals, measured from the
    /// start of the last attempt; `0.000000` for a phase the transport did not report, as curl prints
    /// `time_connect` on a reused connection), so `curl -w` and `yard -w` output can be put side by side.
    private static func value(of name: String, outcome: ExchangeOutcome, method: String, exitCode: Int32) -> String? {
        let timings = outcome.context?.timings
        let total = timings?.total ?? outcome.elapsed
        let downloaded = outcome.bodyBytes - (outcome.resumedFrom ?? 0)
        func seconds(_ phase: Duration?) -> String { String(format: "%.6f", (phase ?? .zero).seconds) }
        switch name {
        case "http_code", "response_code":
            // Three digits, 000 when no response arrived, as curl prints it.
            let code = outcome.head?.status.code ?? 0
            return String(repeating: "0", count: max(0, 3 - String(code).count)) + String(code)
        case "time_namelookup": return seconds(timings?.dns)
        case "time_connect": return seconds(timings?.connect)
        case "time_appconnect": return seconds(timings?.tls)
        case "time_pretransfer": return seconds(timings?.requestStart)
        case "time_starttransfer": return seconds(timings?.firstByte)
        case "time_total": return seconds(total)
        case "num_connects": return String(timings?.newConnections ?? 0)
        case "size_download": return String(downloaded)
        case "speed_download":
            // Bytes per second over the whole exchange, a whole number, as curl prints it.
            let elapsed = total.seconds
            return String(elapsed > 0 ? Int64(Double(downloaded) / elapsed) : 0)
        case "remote_ip": return timings?.remoteAddress ?? ""
        case "remote_port": return String(timings?.remotePort ?? 0)
        case "url_effective": return outcome.effectiveURL
        case "num_redirects": return String(outcome.redirects)
        case "http_version": return outcome.head == nil ? "0" : outcome.context?.timings.httpVersion?.description ?? "1.1"
        case "content_type": return outcome.head?.headerFields[.contentType] ?? ""
        case "method": return method
        case "exitcode": return String(exitCode)
        case "errormsg": return outcome.error?.message ?? ""
        case "json": return outcome.json.description
        default: return nil
        }
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
