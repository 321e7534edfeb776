import Foundation
import QiktionaryCore

/// The content shipped with the game: the dictionary of allowed guesses, the word packs and the
/// daily schedule.
public enum BundledContent {
    /// The folder SwiftPM builds beside the executable in the build folder (`Bundle.module`'s
    /// own name for it). `Bundle.module` itself is never used: when neither of the places it knows
    /// holds the bundle it stops the program, and an installed copy has no bundle at all.
    public static let bundleName = "qiktionary_QiktionaryResources.resources"

    /// Where an installed copy keeps its files, relative to the folder of its binary
    /// (`PREFIX/bin/qiktionary` reads `PREFIX/share/qiktionary/`).
    public static let installedRelativePath = "../share/qiktionary"

    /// None of the places looked at holds the packs and the dictionary.
    public struct Missing: Error, CustomStringConvertible, Sendable {
        public var looked: [String]
        public var description: String {
            "the game's packs and dictionary are not installed (looked in \(looked.joined(separator: ", "))); "
                + "reinstall the game or set QIKTIONARY_RESOURCES to the folder that holds words.txt and packs/"
        }
    }

    /// Where the files are, looked up once: beside the binary (`../share/qiktionary/`, an
    /// installed copy), then the resource bundle beside it in the build folder, then
    /// `QIKTIONARY_RESOURCES`.
    public static let lookup: Result<URL, Missing> = locate(
        executable: runningExecutable(), environment: ProcessInfo.processInfo.environment)

    /// The folder holding `words.txt` and `packs/`, or why there is none.
    public static func require() throws(Missing) -> URL { try lookup.get() }

    /// The folder holding `words.txt` and `packs/`. The program checks `require()` before any
    /// command runs; the benchmarks and tests run from the build folder, where it always is.
    public static var folder: URL {
        switch lookup {
        case .success(let folder): return folder
        case .failure(let missing): fatalError(missing.description)
        }
    }

    public static var dictionaryURL: URL { folder.appendingPathComponent("words.txt") }
    public static var packsFolder: URL { folder.appendingPathComponent("packs") }
    /// The common tier: the words of the dictionary that are also in SCOWL's size-50 list
    /// (see `dictionary/README.md`). Every secret word of a pack is one of them.
    public static var commonWordsURL: URL { folder.appendingPathComponent("common.txt") }
    /// The daily schedule: the word of each date (`DailySchedule`).
    public static var scheduleURL: URL { folder.appendingPathComponent("daily/schedule.txt") }

    /// The allowed guesses, read from the dictionary file.
    public static func lexicon() throws -> Lexicon {
        Lexicon(text: try String(contentsOf: dictionaryURL, encoding: .utf8))
    }

    /// The first of the candidate folders that holds the dictionary file and the packs folder.
    public static func locate(executable: URL?, environment: [String: String]) -> Result<URL, Missing> {
        var candidates: [URL] = []
        if let folder = executable?.deletingLastPathComponent() {
            candidates.append(folder.appendingPathComponent(installedRelativePath).standardizedFileURL)
            candidates.append(folder.appendingPathComponent(bundleName))
        }
        if let override = environment["QIKTIONARY_RESOURCES"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        if let found = candidates.first(where: holdsContent) { return .success(found) }
        return .failure(Missing(looked: candidates.map(\.path)))
    }

    /// The running program's own file with symbolic links resolved (`/proc/self/exe` on Linux),
    /// so a link on `PATH` to an installed binary still finds the files beside the binary.
    static func runningExecutable() -> URL? {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath()
    }

    private static func holdsContent(_ folder: URL) -> Bool {
        var isFolder: ObjCBool = false
        let manager = FileManager.default
        return manager.fileExists(atPath: folder.appendingPathComponent("words.txt").path, isDirectory: &isFolder) && !isFolder.boolValue
            && manager.fileExists(atPath: folder.appendingPathComponent("packs").path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The common words, read from the common tier's file: words a player knows, for secret
    /// words and hints.
    public static func commonWords() throws -> Lexicon {
        Lexicon(text: try String(contentsOf: commonWordsURL, encoding: .utf8))
    }
}

extension BundledContent {
    /// The daily schedule, read from its file.
    public static func schedule() throws -> DailySchedule {
        try DailySchedule(text: try String(contentsOf: scheduleURL, encoding: .utf8))
    }
}
