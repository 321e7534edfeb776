import Foundation
import QiktionaryCore
import TextSafety

/// Reads pack files: the JSON documents in Resources/packs and in the data dir's packs folder.
public enum PackFile {
    /// No real pack comes near this; a larger file is refused before it is read.
    public static let maximumSize = 4 << 20

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var reason: String
        /// One line whatever the file's name or content: control characters and line breaks
        /// (a hostile file name, a fact with an escape sequence) are shown as visible escapes (`\x1b`).
        public var description: String {
            oneLine("pack file \(file) is unusable: \(reason)")
        }
    }

    /// Decodes one pack file. Content checks that need the dictionary come later, at import.
    public static func read(_ url: URL) throws(Problem) -> Pack {
        let name = url.lastPathComponent
        let data: Data
        do {
            let size = try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
            guard size <= maximumSize else { throw Problem(file: name, reason: "larger than 4 MiB") }
            data = try Data(contentsOf: url)
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(file: name, reason: "cannot be read (\(StorageError.describe(error)))")
        }
        do {
            return try JSONDecoder().decode(Pack.self, from: data)
        } catch let error as DecodingError {
            throw Problem(file: name, reason: "not a valid pack (\(explain(error)))")
        } catch {
            throw Problem(file: name, reason: "not valid JSON")
        }
    }

    /// The `.json` files of a folder, in name order; a missing folder has none.
    public static func files(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .map { folder.appendingPathComponent($0) }
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(key.stringValue)\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return "wrong type\(path(context))"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "bad value\(path(context))"
        @unknown default: return "unreadable"
        }
    }
}
