import Foundation
import Testing

/// docs/architecture.md's list of target dependencies is the one Package.swift declares.
@Suite struct ArchitectureTests {
    /// Each library and executable target of Package.swift with the targets and products it depends on.
    static func declared() throws -> [String: [String]] {
        let text = try String(contentsOf: Binary.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        let starts = [".target(", ".executableTarget(", ".systemLibrary("]
        var index = text.startIndex
        while let found = starts.compactMap({ text.range(of: $0, range: index..<text.endIndex) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            // The call's text, to its closing parenthesis.
            var depth = 0, end = found.upperBound
            var cursor = text.index(before: found.upperBound)
            while cursor < text.endIndex {
                if text[cursor] == "(" || text[cursor] == "[" { depth += 1 }
                if text[cursor] == ")" || text[cursor] == "]" { depth -= 1; if depth == 0 { end = cursor; break } }
                cursor = text.index(after: cursor)
            }
            let call = String(text[found.upperBound..<end])
            index = end
            guard let name = Self.firstQuoted(after: "name:", in: call) else { continue }
            var dependencies: [String] = []
            if let list = call.range(of: "dependencies:") {
                var rest = call[list.upperBound...]
                var bracket = 0
                var body = ""
                for character in rest {
                    if character == "[" { bracket += 1; if bracket == 1 { continue } }
                    if character == "]" { bracket -= 1; if bracket == 0 { break } }
                    if bracket >= 1 { body.append(character) }
                }
                rest = Substring(body)
                // "Target" and .product(name: "Product", package: "…"): the package's name is not a dependency.
                let pattern = try Regex(#"package:\s*"[^"]*"|"([^"]+)""#)
                for match in rest.matches(of: pattern) {
                    if let name = match.output[1].substring { dependencies.append(String(name)) }
                }
            }
            targets[name] = dependencies
        }
        return targets
    }

    static func firstQuoted(after label: String, in text: String) -> String? {
        guard let at = text.range(of: label) else { return nil }
        let rest = text[at.upperBound...]
        guard let open = rest.firstIndex(of: "\"") else { return nil }
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "\"") else { return nil }
        return String(rest[afterOpen..<close])
    }

    /// The list in docs/architecture.md: `Target -> A, B` lines in a text block.
    static func documented() throws -> [String: [String]] {
        let text = try String(contentsOf: Binary.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        for line in text.split(separator: "\n") where line.contains(" -> ") || line.hasSuffix(" ->") {
            let parts = line.components(separatedBy: "->")
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            // Only the list's lines: a bare target name before the arrow (not a table row).
            guard parts.count == 2, !name.isEmpty, !name.contains(" ") else { continue }
            let dependencies = parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            targets[name] = dependencies
        }
        return targets
    }

    @Test func theDocumentedDependenciesAreThoseOfPackageSwift() throws {
        let declared = try Self.declared(), documented = try Self.documented()
        #expect(declared.count >= 16, "\(declared.keys.sorted())")
        #expect(Set(declared.keys) == Set(documented.keys))
        for (name, dependencies) in declared {
            #expect(Set(dependencies) == Set(documented[name] ?? []), "\(name): Package.swift says \(dependencies.sorted())")
        }
    }

    /// The pure interface needs no storage: nothing in GameUI imports it or GRDB.
    @Test func theInterfaceImportsNoStorage() throws {
        let folder = Binary.repository.appendingPathComponent("Sources/GameUI")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import Storage") && !text.contains("import GRDB"), "\(file)")
        }
        #expect(try Self.declared()["GameUI"].map { !$0.contains("Storage") } == true)
    }

    /// Every Swift file under `Sources/`, by its path from the repository's top.
    static func sources() throws -> [(path: String, text: String)] {
        let top = Binary.repository.appendingPathComponent("Sources")
        guard let walk = FileManager.default.enumerator(atPath: top.path) else { return [] }
        var files: [(String, String)] = []
        for case let path as String in walk where path.hasSuffix(".swift") {
            files.append(("Sources/" + path, try String(contentsOf: top.appendingPathComponent(path), encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// GRDB is storage's business: only Storage and the sync benchmark (which times the raw
    /// database as its floor) import it.
    @Test func onlyStorageAndTheBenchmarkImportGRDB() throws {
        let files = try Self.sources()
        #expect(files.count > 50)
        for (path, text) in files where text.contains("import GRDB") {
            #expect(path.hasPrefix("Sources/Storage/") || path.hasPrefix("Sources/QiktionaryBench/"), "\(path) imports GRDB")
        }
    }

    /// Text from data never commands the terminal: the executable and plain mode write to
    /// standard output only through `say`, `printJSON` and plain mode's `writeLine` (each line of
    /// which `PlainSession.emit` has passed through `visible` or `JSONLine`), and to standard error
    /// through `oneLine`. No other file calls `print` or writes a standard stream.
    @Test func everyPrintedLinePassesTheTerminalEscaping() throws {
        let allowed: [String: [String]] = [
            "Sources/qiktionary/Output.swift": ["Swift.print("],
            "Sources/qiktionary/Play.swift": ["FileHandle.standardOutput.write(Data((line"],
            // The export is JSON already made safe by `ExportDocument.encoded`.
            "Sources/qiktionary/ExportImport.swift": ["FileHandle.standardOutput.write(data)"],
            // The share text on the clipboard (OSC 52, its text escaped and base64-encoded).
            "Sources/qiktionary/FullScreen.swift": ["FileHandle.standardOutput.write(Data(sequence.utf8))"],
        ]
        let writes = [#"(?<![\w.])print\("#, #"Swift\.print\("#, #"FileHandle\.standardOutput\.write\("#, #"fputs\("#, #"putchar\("#]
        for (path, text) in try Self.sources() where path.hasPrefix("Sources/qiktionary/") || path.hasPrefix("Sources/PlainMode/") {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for pattern in writes where code.range(of: pattern, options: .regularExpression) != nil {
                    #expect(allowed[path]?.contains { code.contains($0) } == true, "\(path):\(number + 1) writes output around the escaping: \(code)")
                }
                if code.contains("FileHandle.standardError.write(") {
                    #expect(code.contains("oneLine(") || code.contains("Data(\"\\r\\u{1B}[K") || code.contains("(copied to the clipboard"), "\(path):\(number + 1) writes stderr around oneLine: \(code)")
                }
            }
        }
    }

    /// The cloud's record types, zones, record names and field names are spelled in one file,
    /// the cloud schema: no other file of the targets that handle records spells a record type
    /// or a record name's form, and no other file of Sync spells a field.
    @Test func theCloudSchemaIsSpelledInOneFile() throws {
        let files = try Self.sources()
        let schema = "Sources/Sync/CloudSchema.swift"
        let schemaText = try #require(files.first { $0.path == schema }?.text)
        // Every name the schema defines: `static let name = "Spelling"`, several to a line.
        let defined = Set(schemaText.matches(of: try Regex(#"(\w+) = "([A-Za-z]+-?)""#)).compactMap { $0.output[2].substring.map(String.init) })
        for name in ["Game", "Guess", "Mark", "Bookmark", "bookmark-", "status", "markedAt", "bookmarked", "device"] {
            #expect(defined.contains(name), "the schema defines \(name)")
        }
        let recordHandling = ["Sources/Storage/", "Sources/Sync/", "Sources/CloudStore/", "Sources/qiktionary/", "Sources/QiktionaryBench/"]
        for (path, text) in files where path != schema && recordHandling.contains(where: path.hasPrefix) {
            for spelling in [#""Game""#, #""Guess""#, #""Mark""#, #""Bookmark""#, #""bookmark-"#, "-mark-"] {
                #expect(!text.contains(spelling), "\(path) spells the cloud's \(spelling)")
            }
            guard path.hasPrefix("Sources/Sync/") else { continue }
            for name in defined {
                #expect(!text.contains("\"\(name)\""), "\(path) spells the cloud field \(name)")
            }
        }
    }
}
