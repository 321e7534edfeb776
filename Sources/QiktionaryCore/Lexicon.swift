import Foundation

/// The words a player may guess. Rules take it as a value so tests can pass a tiny one.
public struct Lexicon: Sendable {
    private let words: Set<String>
    /// The common tier, when given (`withCommon`): the hint prefers these words when they split
    /// the candidates as well, or nearly. Read the first time it is asked for: checking a word
    /// (a guess played, a fetched one) never needs it, and a process that receives one guess
    /// would otherwise spend a tenth of its time reading the tier.
    public var common: Set<String> { commonTier.words }
    private var commonTier = CommonTier { [] }
    /// Each length's words, worked out the first time they are asked for: decoding one code
    /// (a challenge, each of a match's three words) asks for them, and filtering and sorting
    /// the whole dictionary every time made listing a few matches cost more than a sync round.
    private let byLength = WordsByLength()

    /// This dictionary with `tier`'s words as its common ones.
    public func withCommon(_ tier: Lexicon) -> Lexicon {
        withCommon(loading: { tier })
    }

    /// This dictionary with the common words `load` gives, read the first time they are asked
    /// for (once, whichever copy asks).
    public func withCommon(loading load: @escaping @Sendable () -> Lexicon) -> Lexicon {
        var copy = self
        copy.commonTier = CommonTier { load().words }
        return copy
    }

    public init<S: Sequence>(_ words: S) where S.Element == String {
        self.words = Set(words)
    }

    /// One word per line; blank lines and lines that are not lowercase a–z are ignored.
    public init(text: String) {
        var words = Set<String>()
        words.reserveCapacity(40_000)
        // Split as bytes, in one pass over the text's storage: a word is a line of a to z only,
        // so a line is checked as it is split, and only a word is made a string (every process
        // that checks a guess, a fetched one included, reads the whole list: splitting into
        // substrings first and checking each again cost a quarter of a sync receiving one guess).
        var text = text
        text.withUTF8 { bytes in
            var start = 0, index = 0, letters = true
            func end() {
                if letters && index > start {
                    words.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
            }
            while index < bytes.count {
                let byte = bytes[index]
                if (10...13).contains(byte) {
                    end()
                    start = index + 1
                    letters = true
                } else if !(97...122).contains(byte) {
                    letters = false
                }
                index += 1
            }
            end()
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

/// The common tier, read once when first asked for, shared by every copy of its dictionary.
private final class CommonTier: @unchecked Sendable {
    private let lock = NSLock()
    private var load: (@Sendable () -> Set<String>)?
    private var loaded: Set<String> = []

    init(_ load: @escaping @Sendable () -> Set<String>) { self.load = load }

    var words: Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let load {
            loaded = load()
            self.load = nil
        }
        return loaded
    }
}
