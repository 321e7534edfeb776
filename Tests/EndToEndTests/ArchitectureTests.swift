import Foundation
import TestSupport
import Testing

/// docs/architecture.md's list of target dependencies is the one Package.swift declares.
@Suite struct ArchitectureTests {
    /// Each library, executable and system target of Package.swift with the targets and products
    /// it depends on, as `swift package dump-package` prints them: read once a test run.
    static let manifest = Result { try readManifest() }

    static func declared() throws -> [String: [String]] { try manifest.get().dependencies }

    /// Each target's folder of sources, from the repository's top: its `path`, or `Sources/<name>`.
    static func folders() throws -> [String: String] { try manifest.get().folders }

    struct Manifest: Sendable {
        var dependencies: [String: [String]]
        var folders: [String: String]
    }

    static func readManifest() throws -> Manifest {
        // A scratch folder of its own, so the build folder's lock (held by a running build) is
        // never waited for.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("qk-dump-package")
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                           ["swift", "package", "--package-path", Binary.repository.path, "--scratch-path", scratch.path, "dump-package"],
                                           environment: ProcessInfo.processInfo.environment, timeout: 300)
        guard result.status == 0, let package = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let targets = package["targets"] as? [[String: Any]] else {
            throw ManifestUnreadable(stderr: result.stderr)
        }
        var declared: [String: [String]] = [:], folders: [String: String] = [:]
        for target in targets where target["type"] as? String != "test" {
            guard let name = target["name"] as? String else { continue }
            folders[name] = target["path"] as? String ?? "Sources/\(name)"
            // {"byName": ["Target", null]}, {"target": ["Target", null]}, {"product": ["Product", "package", …]}:
            // the first string is the dependency's name.
            let dependencies = target["dependencies"] as? [[String: Any]] ?? []
            declared[name] = dependencies.compactMap { dependency in
                dependency.values.first.flatMap { ($0 as? [Any])?.first as? String }
            }
        }
        return Manifest(dependencies: declared, folders: folders)
    }

    struct ManifestUnreadable: Error { var stderr: String }

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

    /// The list reads top down: every target it names depends only on targets listed below it.
    @Test func theDocumentedDependenciesPointDown() throws {
        let text = try String(contentsOf: Binary.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let documented = try Self.documented()
        let order = text.split(separator: "\n").compactMap { line -> String? in
            let name = line.components(separatedBy: "->")[0].trimmingCharacters(in: .whitespaces)
            return line.contains("->") && documented[name] != nil ? name : nil
        }
        for (index, name) in order.enumerated() {
            for dependency in documented[name] ?? [] where documented[dependency] != nil {
                #expect((order.firstIndex(of: dependency) ?? 0) > index, "\(name) -> \(dependency) points up")
            }
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

    /// Every module a source file imports is one its target declares in Package.swift (a target
    /// or a product), or the system's: a module reached only through another target's
    /// dependencies builds today and breaks when that target drops it.
    @Test func everyImportIsDeclared() throws {
        let declared = try Self.declared(), folders = try Self.folders()
        let system: Set = ["Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization"]
        let importLine = try Regex(#"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#)
        var checked = 0
        for (path, text) in try Self.sources() {
            // The target whose folder holds the file (the longest folder that is a prefix of it).
            guard let (target, _) = folders.filter({ path.hasPrefix($0.value + "/") }).max(by: { $0.value.count < $1.value.count }) else {
                Issue.record("\(path) is in no target's folder")
                continue
            }
            let allowed = Set(declared[target] ?? []).union(system)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let match = try importLine.firstMatch(in: String(line)), let module = match.output[1].substring else { continue }
                checked += 1
                #expect(allowed.contains(String(module)), "\(path):\(number + 1) imports \(module), which \(target) does not declare")
            }
        }
        #expect(checked > 200, "\(checked) imports read")
    }

    /// GRDB is storage's business: only Storage, the sync benchmark (which times the raw
    /// database as its floor) and the simulation (which copies one template database into every
    /// machine) import it.
    @Test func onlyStorageAndTheBenchmarkImportGRDB() throws {
        let files = try Self.sources()
        #expect(files.count > 50)
        for (path, text) in files where text.contains("import GRDB") {
            #expect(path.hasPrefix("Sources/Storage/") || path.hasPrefix("Sources/QiktionaryBench/") || path.hasPrefix("Sources/Simulation/"),
                    "\(path) imports GRDB")
        }
    }

    /// The query interface names a column through its record's `Columns` (made from its coding
    /// keys, or the game table's list), never as a string; the frozen migrations spell theirs.
    @Test func noStatementOfTheQueryInterfaceSpellsAColumn() throws {
        for (path, text) in try Self.sources() where path.hasPrefix("Sources/") && !path.hasSuffix("/Migrations.swift") {
            #expect(text.range(of: #"(?<!\w)Column\(""#, options: .regularExpression) == nil, "\(path) spells a column as a string")
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
                    // App's progress line (its words and numbers) and the clipboard's fixed note are the others.
                    #expect(code.contains("oneLine(") || code.contains("ProgressLine {") || code.contains("Clipboard.note"),
                            "\(path):\(number + 1) writes stderr around oneLine: \(code)")
                }
            }
        }
    }

    /// The cloud's record types, zones, record names and field names are spelled in one place,
    /// the cloud schema (the private zones' file and the shared zone's): no other file of the targets that handle records spells a record type
    /// or a record name's form, and no other file of Sync spells a field.
    @Test func theCloudSchemaIsSpelledInOneFile() throws {
        let files = try Self.sources()
        // The private zones' schema and the shared zone's, one type in two files.
        let schema: Set = ["Sources/Sync/CloudSchema.swift", "Sources/Sync/CloudSchema+Shared.swift"]
        let schemaText = files.filter { schema.contains($0.path) }.map(\.text).joined(separator: "\n")
        #expect(files.filter { schema.contains($0.path) }.count == schema.count, "both schema files are read")
        // Every name the schema defines: `static let name = "Spelling"`, several to a line.
        let defined = Set(schemaText.matches(of: try Regex(#"(\w+) = "([A-Za-z]+-?)""#)).compactMap { $0.output[2].substring.map(String.init) })
        for name in ["Game", "Guess", "Mark", "Bookmark", "bookmark-", "status", "markedAt", "bookmarked", "device", "Match", "joinedAt"] {
            #expect(defined.contains(name), "the schema defines \(name)")
        }
        let recordHandling = ["Sources/Storage/", "Sources/Sync/", "Sources/CloudStore/", "Sources/qiktionary/", "Sources/QiktionaryBench/"]
        for (path, text) in files where !schema.contains(path) && recordHandling.contains(where: path.hasPrefix) {
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
