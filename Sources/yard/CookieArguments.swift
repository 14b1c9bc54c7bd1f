import Foundation
import HTTPTypes
import Switchyard
import SwitchyardCookies

/// `-b` and `-c` as curl reads them: `-b` with an `=` is literal cookie data sent as it is, otherwise
/// a cookie file to start the jar from (a missing file is an empty jar); `-c FILE` writes every cookie
/// of the jar to FILE after the transfer (`-` for standard output), in curl's Netscape format.
struct CookieArguments {
    /// `-b`: literal `name=value` pairs or a file.
    var cookie: String?
    /// `-c`: where to write the jar.
    var cookieJar: String?

    /// The literal `Cookie` field value, when `-b` is data rather than a file.
    var literal: String? { cookie.flatMap { $0.contains("=") ? $0 : nil } }

    /// The file `-b` names, when it names one.
    private var file: String? { cookie.flatMap { $0.contains("=") ? nil : $0 } }

    /// The jar, when `-b FILE` or `-c` asks for one, seeded from `-b FILE`.
    func makeJar() throws(SwitchyardError) -> CookieJar? {
        guard file != nil || cookieJar != nil else { return nil }
        let jar = CookieJar()
        if let file, FileManager.default.fileExists(atPath: file) {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw .invalidRequest("Cannot read the cookie file '\(file)': \(error.localizedDescription)")
            }
            do {
                for cookie in NetscapeCookieFile.cookies(from: text) { try jar.insert(cookie) }
            } catch {
                throw SwitchyardError.wrapping(error)
            }
        }
        return jar
    }

    /// Writes the jar to `-c FILE` (or standard output for `-`).
    func save(_ jar: CookieJar?) throws(SwitchyardError) {
        guard let jar, let cookieJar else { return }
        do {
            let text = NetscapeCookieFile.text(for: try jar.allCookies())
            if cookieJar == "-" {
                FileHandle.standardOutput.write(Data(text.utf8))
            } else {
                try Data(text.utf8).write(to: URL(fileURLWithPath: cookieJar), options: .atomic)
            }
        } catch {
            throw .invalidRequest("Cannot write the cookie jar '\(cookieJar)': \(error.localizedDescription)")
        }
    }
}
