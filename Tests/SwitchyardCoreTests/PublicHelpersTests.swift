import Foundation
import SwitchyardCore
import Testing

/// The kernel helpers the built-in plugins use — ``Lock``, ``FileDescriptor``, ``CivilDate``,
/// `trimmingSpaces()` and the case-insensitive ``HTTPDate`` reader — used as any plugin uses them:
/// through a plain `import SwitchyardCore`, no `@testable`.
@Suite struct PublicHelpersTests {
    /// A `Sendable` struct holding a lock, as an interceptor would.
    private struct Counter: Sendable {
        let count = Lock(0)

        func increment() { count.withLock { $0 += 1 } }
    }

    private struct Refused: Error, Equatable {}

    /// A fresh path in the temporary directory; nothing is there yet.
    private static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(name)-\(UUID().uuidString)").path
    }

    // MARK: - Lock

    @Test func lockKeepsACountExactUnderManyConcurrentTasks() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    for _ in 0..<1_000 { counter.increment() }
                }
            }
        }
        #expect(counter.count.withLock { $0 } == 64_000)
    }

    @Test func copiesOfALockShareOneValue() {
        let original = Lock([String]())
        let copy = original
        copy.withLock { $0.append("from the copy") }
        #expect(original.withLock { $0 } == ["from the copy"])
    }

    @Test func lockReturnsTheBodysResultAndRethrowsItsTypedError() {
        let lock = Lock(41)
        let doubled = lock.withLock { (value: inout Int) -> Int in
            value += 1
            return value * 2
        }
        #expect(doubled == 84)
        #expect(throws: Refused()) {
            try lock.withLock { (_: inout Int) throws(Refused) in throw Refused() }
        }
        #expect(lock.withLock { $0 } == 42)
    }

    // MARK: - FileDescriptor

    @Test func fileDescriptorWritesAndReadsBackAFileLargerThanOneRead() throws {
        let path = Self.temporaryPath("file")
        defer { FileDescriptor.remove(path) }
        let content = (0..<(FileDescriptor.readSize * 2 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31) }

        let output = try FileDescriptor.writing(path, truncating: true)
        try output.write(content[...])
        try output.synchronize()
        output.close()
        output.close()  // a second close does nothing
        #expect(FileDescriptor.size(of: path) == Int64(content.count))

        let input = try FileDescriptor.reading(path)
        defer { input.close() }
        var read: [UInt8] = []
        var pieces = 0
        while true {
            let piece = try input.read()
            if piece.isEmpty { break }
            #expect(piece.count <= FileDescriptor.readSize)
            read += piece
            pieces += 1
        }
        #expect(read == content)
        #expect(pieces >= 3)
    }

    @Test func fileDescriptorAppendsOrTruncates() throws {
        let path = Self.temporaryPath("append")
        defer { FileDescriptor.remove(path) }
        for (text, truncating) in [("one", true), ("two", false), ("three", false)] {
            let file = try FileDescriptor.writing(path, truncating: truncating)
            try file.write(Array(text.utf8)[...])
            file.close()
        }
        #expect(try Self.contents(of: path) == "onetwothree")

        let file = try FileDescriptor.writing(path, truncating: true)
        try file.write(Array("new".utf8)[...])
        file.close()
        #expect(try Self.contents(of: path) == "new")
    }

    @Test func fileDescriptorLocksRenamesAndRemoves() throws {
        let path = Self.temporaryPath("from")
        let renamed = Self.temporaryPath("to")
        defer {
            FileDescriptor.remove(path)
            FileDescriptor.remove(renamed)
        }
        #expect(FileDescriptor.version(of: path) == nil)
        let file = try FileDescriptor.writing(path, truncating: true)
        try file.lockExclusively()
        try file.write(Array("locked".utf8)[...])
        file.close()
        let version = try #require(FileDescriptor.version(of: path))

        try FileDescriptor.rename(path, to: renamed)
        #expect(FileDescriptor.size(of: path) == nil)
        #expect(FileDescriptor.version(of: renamed) == version)
        #expect(try Self.contents(of: renamed) == "locked")

        let longer = try FileDescriptor.writing(renamed, truncating: false)
        try longer.write(Array("!".utf8)[...])
        longer.close()
        #expect(FileDescriptor.version(of: renamed) != version)

        FileDescriptor.remove(renamed)
        FileDescriptor.remove(renamed)  // a missing file is ignored
        #expect(FileDescriptor.size(of: renamed) == nil)
    }

    @Test func fileDescriptorThrowsInvalidRequestForAMissingFile() {
        let path = Self.temporaryPath("missing")
        do {
            _ = try FileDescriptor.reading(path)
            Issue.record("opened a file that does not exist")
        } catch {
            #expect(error.kind == .invalidRequest)
            #expect(error.description.contains(path))
        }
        #expect(throws: SwitchyardError.self) { try FileDescriptor.rename(path, to: Self.temporaryPath("nowhere")) }
    }

    /// The file's whole content as UTF-8 text.
    private static func contents(of path: String) throws -> String {
        let file = try FileDescriptor.reading(path)
        defer { file.close() }
        var bytes: [UInt8] = []
        var piece = try file.read()
        while !piece.isEmpty {
            bytes += piece
            piece = try file.read()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - trimmingSpaces

    @Test func trimmingSpacesRemovesOnlyHTTPOptionalWhitespace() {
        #expect(" \t gzip ;q=0.5 \t".trimmingSpaces() == "gzip ;q=0.5")
        #expect("plain".trimmingSpaces() == "plain")
        #expect(" \t \t".trimmingSpaces().isEmpty)
        #expect("".trimmingSpaces().isEmpty)
        #expect("\n value \n".trimmingSpaces() == "\n value \n")
        let field = "name = value ; Path=/"
        let pair = field.split(separator: ";").map { $0.trimmingSpaces() }
        #expect(pair == ["name = value", "Path=/"])
    }

    // MARK: - CivilDate

    @Test func civilDateCountsDaysFrom1970() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSince1970 == 0)
        #expect(CivilDate(year: 1969, month: 12, day: 31).daysSince1970 == -1)
        // Sun, 06 Nov 1994 08:49:37 GMT is 784,111,777 seconds after 1970.
        #expect(CivilDate(year: 1994, month: 11, day: 6).daysSince1970 == 784_111_777 / 86_400)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSince1970 - CivilDate(year: 2000, month: 2, day: 28).daysSince1970 == 2)
        let date = CivilDate(year: 2024, month: 2, day: 29)
        #expect(date.year == 2024 && date.month == 2 && date.day == 29)
        #expect(date == CivilDate(year: 2024, month: 2, day: 29))
    }

    @Test func civilDateKnowsWhichDatesExist() {
        #expect(CivilDate(year: 2000, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 1900, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2023, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2024, month: 11, day: 31).isValid)
        #expect(!CivilDate(year: 2024, month: 13, day: 1).isValid)
        #expect(!CivilDate(year: 2024, month: 1, day: 0).isValid)
    }

    // MARK: - HTTPDate

    @Test func httpDateReadsNamesInAnyCaseOnlyWhenAsked() throws {
        let shouted = "Sun, 06 NOV 1994 08:49:37 gmt"
        let date = try #require(HTTPDate(shouted, ignoringCaseOfNames: true))
        #expect(date.secondsSince1970 == 784_111_777)
        #expect(HTTPDate(shouted, ignoringCaseOfNames: false) == nil)
        #expect(HTTPDate(shouted) == nil)
    }
}
