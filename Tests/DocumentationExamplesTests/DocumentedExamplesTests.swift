import Foundation
import Testing

/// Every ```swift block of README.md and of the DocC articles (`*.docc` under `Sources`, `Transports`,
/// `Plugins` and `Layers`)
/// must be compiled: its code appears in a `.swift` file under `Tests/`, compared without whitespace,
/// semicolons and trailing commas (so that `make format` may re-wrap the test file, never the
/// tokens). A block's `import` lines are matched against that file's
/// imports instead (they cannot stand inside the function that holds the code; a leading
/// `#if canImport(…)` around some of them counts as part of them): the file must
/// import each of them and nothing else but `Testing`, `SwitchyardTestServer` and
/// `SwitchyardTestSupport`, so the block compiles with exactly the imports it shows.
///
/// A block that cannot be compiled in a test (a `Package.swift` fragment) is exempted by an HTML
/// comment on the line right before its fence: `<!-- not compiled: REASON -->`.
@Suite struct DocumentedExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Imports a test file may add to those of the block it holds: they provide the test scaffolding.
    static let scaffoldingImports: Set<String> = ["Testing", "SwitchyardTestServer", "SwitchyardTestSupport"]

    struct Block: CustomStringConvertible {
        let file: String
        let line: Int
        let lines: [String]
        /// The leading lines that are imports, or `#if canImport(…)`/`#else`/`#endif` around them.
        var header: ArraySlice<String> { lines.prefix { DocumentedExamplesTests.isImportHeaderLine($0) } }
        var imports: Set<String> { Set(header.compactMap(DocumentedExamplesTests.importedModule)) }
        var code: [String] { Array(lines.dropFirst(header.count)) }
        var description: String { "\(file):\(line): \(lines.first ?? "")" }
    }

    struct SwiftFile {
        let path: String
        let lines: [String]
        let imports: Set<String>
    }

    /// `lines` without whitespace, semicolons and trailing commas: what a formatter may change
    /// without changing the code.
    static func squeezed(_ lines: [String]) -> String {
        var text = String(lines.joined().unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) && $0 != ";" })
        text = text.replacingOccurrences(of: ",)", with: ")").replacingOccurrences(of: ",]", with: "]")
        return text
    }

    static func importedModule(_ line: String) -> String? {
        guard line.hasPrefix("import ") else { return nil }
        return String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
    }

    static func isImportHeaderLine(_ line: String) -> Bool {
        importedModule(line) != nil || line.hasPrefix("#if canImport(") || line == "#else" || line == "#endif"
    }

    static func normalized(_ text: Substring) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The documentation files: README.md and every article of every catalog.
    static func documentationFiles() throws -> [String] {
        var files = ["README.md"]
        for folder in ["Sources", "Transports", "Plugins", "Layers"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".md"), relative.contains(".docc/") { files.append("\(folder)/\(relative)") }
            }
        }
        return files.sorted()
    }

    static func blocks(in file: String) throws -> (compiled: [Block], exempted: Int) {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var blocks: [Block] = []
        var exempted = 0
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else {
                index += 1
                continue
            }
            let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            let isExempt = previous.map { $0.hasPrefix("<!-- not compiled: ") && $0.hasSuffix("-->") && $0.count > 24 } ?? false
            let start = index + 1
            var end = start
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" { end += 1 }
            if isExempt {
                exempted += 1
            } else {
                blocks.append(Block(file: file, line: start, lines: lines[start..<end].compactMap(normalized)))
            }
            index = end + 1
        }
        return (blocks, exempted)
    }

    static func swiftFilesUnderTests() throws -> [SwiftFile] {
        let base = root.appendingPathComponent("Tests")
        var files: [SwiftFile] = []
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            let lines = text.split(separator: "\n").compactMap(normalized)
            files.append(
                SwiftFile(
                    path: "Tests/\(relative)", lines: lines,
                    imports: Set(lines.compactMap(importedModule))))
        }
        return files
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        needle.isEmpty || squeezed(haystack).contains(squeezed(needle))
    }

    /// The file that compiles the block, if any.
    static func home(of block: Block, among files: [SwiftFile]) -> SwiftFile? {
        let code = block.code
        let imports = block.imports
        return files.first { file in
            guard contains(file.lines, code) else { return false }
            guard !imports.isEmpty else { return true }
            return imports.isSubset(of: file.imports) && file.imports.isSubset(of: imports.union(scaffoldingImports))
        }
    }

    @Test func everyDocumentedExampleIsCompiled() throws {
        let files = try Self.swiftFilesUnderTests()
        var missing: [String] = []
        var found = 0
        for documentation in try Self.documentationFiles() {
            for block in try Self.blocks(in: documentation).compiled {
                if Self.home(of: block, among: files) == nil { missing.append(block.description) } else { found += 1 }
            }
        }
        #expect(
            missing.isEmpty,
            "Not found verbatim in a .swift file under Tests/ (with the block's imports):\n\(missing.joined(separator: "\n"))")
        #expect(found > 20)
    }

    @Test func onlyThePackageFragmentOfTheReadmeIsExempted() throws {
        #expect(try Self.blocks(in: "README.md").exempted == 1)
    }

    @Test func theCheckFindsADriftedBlock() {
        let file = SwiftFile(
            path: "t.swift", lines: ["import Switchyard", "func f() {", "let a = 1", "let b = 2", "}"],
            imports: ["Switchyard"])
        #expect(Self.home(of: Block(file: "d.md", line: 1, lines: ["let a = 1", "let b = 2"]), among: [file]) != nil)
        #expect(Self.home(of: Block(file: "d.md", line: 1, lines: ["let a = 1", "let b = 3"]), among: [file]) == nil)
        // The block's imports must be the file's: a missing one, or one the file adds, fails.
        #expect(Self.home(of: Block(file: "d.md", line: 1, lines: ["import Switchyard", "let a = 1"]), among: [file]) != nil)
        #expect(Self.home(of: Block(file: "d.md", line: 1, lines: ["import SwitchyardCurl", "let a = 1"]), among: [file]) == nil)
        let wider = SwiftFile(path: "u.swift", lines: file.lines + ["import Foundation"], imports: ["Switchyard", "Foundation"])
        #expect(Self.home(of: Block(file: "d.md", line: 1, lines: ["import Switchyard", "let a = 1"]), among: [wider]) == nil)
    }
}
