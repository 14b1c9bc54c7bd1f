import Foundation
import HTTPTypes
import SwitchyardCookies
import Testing

/// The disk store: atomic replacement, several writers, partitions, and a file that is not ours.
struct CookieStoreTests {
    private func temporaryFile() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("jar.json")
    }

    private func response(_ setCookie: String) -> HTTPFields {
        HTTPFields([HTTPField(name: .setCookie, value: setCookie)])
    }

    private let request = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")

    @Test func twoStoresOnOneFileLikeTwoProcessesLoseNoCookie() async throws {
        let file = try temporaryFile()
        // Two stores, each with its own lock descriptor and cache: what two processes have.
        let first = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        let second = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        let writes = 100
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<writes {
                let jar = index.isMultiple(of: 2) ? first : second
                let fields = response("c\(index)=\(index)")
                let request = request
                group.addTask { _ = try? jar.store(fields, from: request) }
            }
        }
        #expect(try first.allCookies().count == writes)
        #expect(try second.allCookies().count == writes, "the second store sees the first's writes")
        let third = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        #expect(try Set(third.allCookies().map(\.name)) == Set((0..<writes).map { "c\($0)" }))
    }

    @Test func sessionAndPersistentCookiesAndPartitionsSurviveAReopen() throws {
        let file = try temporaryFile()
        let jar = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        jar.partition = "alice"
        try jar.store(response("a=1; Max-Age=3600; SameSite=Strict; HttpOnly"), from: request)
        jar.partition = "bob"
        try jar.store(response("b=2"), from: request)
        let reopened = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        let alice = try reopened.allCookies(in: "alice")
        #expect(alice.map(\.pair) == ["a=1"])
        #expect(alice.first?.sameSite == .strict)
        #expect(alice.first?.isHTTPOnly == true)
        #expect(alice.first?.expires != nil)
        try reopened.removeAll(partition: "alice")
        #expect(try jar.allCookies(in: "alice").isEmpty)
        #expect(try jar.allCookies(in: "bob").map(\.pair) == ["b=2"])
    }

    @Test func aFileThatIsNotACookieFileIsATypedActionableError() throws {
        let file = try temporaryFile()
        try Data("not json".utf8).write(to: file)
        let jar = CookieJar(store: DiskCookieStore(url: file), publicSuffixes: .topLevelOnly, limits: .init(perDomain: 1_000))
        #expect {
            try jar.allCookies()
        } throws: { error in
            "\(error)".contains("is not a Switchyard cookie file") && "\(error)".contains(file.path)
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == "not json", "a file that is not ours is never overwritten by a read")
    }
}

/// curl's cookie file format, both ways, and with curl itself.
struct NetscapeCookieFileTests {
    @Test func aFileWrittenHereReadsBackTheSame() {
        let expiry = Date(timeIntervalSince1970: 2_000_000_000)
        let cookies = [
            Cookie(name: "host", value: "1", domain: "example.com"),
            Cookie(name: "dom", value: "a b", domain: "example.com", isHostOnly: false, path: "/app", expires: expiry, isSecure: true),
            Cookie(name: "h", value: "x", domain: "example.com", isHTTPOnly: true)
        ]
        let text = NetscapeCookieFile.text(for: cookies)
        #expect(text.contains("#HttpOnly_example.com\tFALSE\t/\tFALSE\t0\th\tx"))
        #expect(text.contains(".example.com\tTRUE\t/app\tTRUE\t2000000000\tdom\ta b"))
        let read = NetscapeCookieFile.cookies(from: text)
        #expect(read.map(\.pair) == ["host=1", "dom=a b", "h=x"])
        #expect(read.map(\.isHostOnly) == [true, false, true])
        #expect(read[1].expires == expiry)
        #expect(read[1].isSecure && read[2].isHTTPOnly)
        #expect(read[0].created < read[1].created, "file order is creation order")
    }

    @Test func curlsOwnFileReads() {
        let curlFile = """
            # Netscape HTTP Cookie File
            # https://curl.se/docs/http-cookies.html
            # This file was generated by libcurl! Edit at your own risk.

            127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\tabc
            #HttpOnly_.example.com\tTRUE\t/\tTRUE\t1999999999\tt\tv
            .example.com\tTRUE\t/\tFALSE\t0\tempty
            this line is not a cookie
            """
        let cookies = NetscapeCookieFile.cookies(from: curlFile)
        #expect(cookies.map(\.name) == ["sid", "t", "empty"])
        #expect(cookies[1].isHTTPOnly && cookies[1].isSecure && !cookies[1].isHostOnly)
        #expect(cookies[2].value == "")
    }
}
