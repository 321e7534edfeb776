import Foundation

/// The words a player may guess. Rules take it as a value so tests can pass a tiny one.
public struct Lexicon: Sendable {
    private let words: Set<String>
    /// The common tier, when given (`withCommon`): the hint prefers these words when they split
    /// the candidates as well, or nearly.
    public private(set) var common: Set<String> = []
    /// Each length's words, worked out the first time they are asked for: decoding one code
    /// (a challenge, each of a match's three words) asks for them, and filtering and sorting
    /// the whole dictionary every time made listing a few matches cost more than a sync round.
    private let byLength = WordsByLength()

    /// This dictionary with `tier`'s words as its common ones.
    public func withCommon(_ tier: Lexicon) -> Lexicon {
        var copy = self
        copy.common = tier.words
        return copy
    }

    public init<S: Sequence>(_ words: S) where S.Element == String {
        self.words = Set(words)
    }

    /// One word per line; blank lines and lines that are not lowercase a–z are ignored.
    public init(text: String) {
        var words = Set<String>()
        words.reserveCapacity(40_000)
        // Split as bytes: the words are ASCII, and splitting by characters costs several times
        // more (every process that plays or syncs reads the whole list). A line holding any
        // other character is not a word either way.
        for line in text.utf8.split(whereSeparator: { (10...13).contains($0) }) {
            guard let word = String(line), word.isLowercaseASCIIWord else { continue }
            words.insert(word)
        }
        self.words = words
    }

    public func contains(_ word: String) -> Bool { words.contains(word) }
    public var count: Int { words.count }

    /// Every word of `length` letters, sorted, so a solver built from them is the same on every
    /// run (a `Set`'s own order changes from one process to the next).
    public func words(ofLength length: Int) -> [String] {
        byLength.words(length) {
            // A word never has more letters than bytes, and an ASCII word has exactly as many, so
            // only a longer non-ASCII word needs its letters counted.
            words.filter { word in
                let bytes = word.utf8.count
                return bytes == length ? word.utf8.allSatisfy { $0 < 128 } : bytes > length && word.count == length
            }.sorted()
        }
    }
}

/// The words of each length a dictionary was asked for, kept (the words never change, so what
/// was worked out stays true; a copy of the dictionary shares it).
private final class WordsByLength: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [Int: [String]] = [:]

    func words(_ length: Int, _ make: () -> [String]) -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let words = known[length] { return words }
        let words = make()
        known[length] = words
        return words
    }
}
