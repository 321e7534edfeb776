import Foundation
import QiktionaryCore

/// The content shipped with the game: the dictionary of allowed guesses and the word packs.
public enum BundledContent {
    /// Where the files are: `QIKTIONARY_RESOURCES` when set (an installed copy), else the
    /// resource bundle SwiftPM builds beside the executable.
    public static var folder: URL {
        if let override = ProcessInfo.processInfo.environment["QIKTIONARY_RESOURCES"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return Bundle.module.resourceURL ?? Bundle.module.bundleURL
    }

    public static var dictionaryURL: URL { folder.appendingPathComponent("words.txt") }
    public static var packsFolder: URL { folder.appendingPathComponent("packs") }
    /// The common tier: the words of the dictionary that are also in SCOWL's size-50 list
    /// (see `dictionary/README.md`). Every secret word of a pack is one of them.
    public static var commonWordsURL: URL { folder.appendingPathComponent("common.txt") }

    /// The allowed guesses, read from the dictionary file.
    public static func lexicon() throws -> Lexicon {
        Lexicon(text: try String(contentsOf: dictionaryURL, encoding: .utf8))
    }

    /// The common words, read from the common tier's file: words a player knows, for secret
    /// words and hints.
    public static func commonWords() throws -> Lexicon {
        Lexicon(text: try String(contentsOf: commonWordsURL, encoding: .utf8))
    }
}
