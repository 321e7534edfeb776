/// The words a player may guess. Rules take it as a value so tests can pass a tiny one.
public struct Lexicon: Sendable {
    private let words: Set<String>

    public init<S: Sequence>(_ words: S) where S.Element == String {
        self.words = Set(words)
    }

    /// One word per line; blank lines and lines that are not lowercase a–z are ignored.
    public init(text: String) {
        var words = Set<String>()
        words.reserveCapacity(40_000)
        for line in text.split(whereSeparator: \.isNewline) {
            let word = String(line)
            if word.isLowercaseASCIIWord { words.insert(word) }
        }
        self.words = words
    }

    public func contains(_ word: String) -> Bool { words.contains(word) }
    public var count: Int { words.count }
}
