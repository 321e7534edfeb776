import Foundation
import QiktionaryCore

/// The content shipped with the game: the dictionary of allowed guesses, the word packs and the
/// daily schedule.
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
    /// The daily schedule: the word of each date (`DailySchedule`).
    public static var scheduleURL: URL { folder.appendingPathComponent("daily/schedule.txt") }

    /// The allowed guesses, read from the dictionary file.
    public static func lexicon() throws -> Lexicon {
        Lexicon(text: try String(contentsOf: dictionaryURL, encoding: .utf8))
    }
}

extension BundledContent {
    /// The daily schedule, read from its file.
    public static func schedule() throws -> DailySchedule {
        try DailySchedule(text: try String(contentsOf: scheduleURL, encoding: .utf8))
    }
}
