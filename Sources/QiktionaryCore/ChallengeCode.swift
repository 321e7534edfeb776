/// A game to pass to a friend: the word, where it comes from, and how to play it.
public struct Challenge: Sendable, Equatable {
    /// The pack the word was drawn from, with the pack's version; nil for a word of no pack.
    public var pack: (id: String, version: Int)?
    public var word: String
    public var rules: Rules
    public var hard: Bool

    public init(pack: (id: String, version: Int)?, word: String, rules: Rules, hard: Bool) {
        self.pack = pack
        self.word = word
        self.rules = rules
        self.hard = hard
    }

    public static func == (a: Challenge, b: Challenge) -> Bool {
        a.pack?.id == b.pack?.id && a.pack?.version == b.pack?.version && a.word == b.word && a.rules == b.rules && a.hard == b.hard
    }
}

/// Why a challenge code was refused.
public enum ChallengeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not 12 characters of the code's alphabet.
    case malformed(String)
    /// The characters are fine but the code does not check out: mistyped, or made up.
    case doesNotCheck(String)
    /// It checks out but names a word this machine's dictionary does not have.
    case unknownWord(String)
    /// A word the code cannot carry (not 4 to 7 letters of the dictionary, or a repeated letter
    /// under classic rules).
    case cannotEncode(String)

    public var description: String {
        switch self {
        case .malformed(let code):
            "'\(code)' is not a challenge code: a code is 12 letters and digits (no I, L, O or U)"
        case .doesNotCheck(let code): "challenge code '\(code)' does not check out: a character is mistyped or missing"
        case .unknownWord(let code): "challenge code '\(code)' names a word this machine's dictionary does not have"
        case .cannotEncode(let word): "'\(word)' cannot be a challenge: it must be a dictionary word of 4 to 7 letters the rules allow"
        }
    }
}

/// Challenge codes: 12 characters of Crockford's base 32 (digits and letters without I, L, O
/// and U, so nothing reads as another character; lower case, O for 0 and I or L for 1 are
/// accepted, and dashes and spaces are ignored).
///
/// The 60 bits hold the word as its place in the dictionary's sorted words of its length (so
/// the code is short and still works when a pack gains words), its length, the rules, hard mode,
/// a 12-bit hash of the pack's id and its version (0 for a word of no pack), and a 24-bit
/// check. The whole is scrambled by a keyed permutation, so neither the word nor anything
/// about it can be read off the code and one changed character changes everything; a
/// mistyped or made-up code fails the check (one in 16 million gets past it by chance, and
/// must still name a real word).
public enum ChallengeCode {
    public static let length = 12
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The code of a challenge. `dictionary` is the sorted dictionary words of the word's length
    /// (`Lexicon.words(ofLength:)`).
    public static func encode(_ challenge: Challenge, dictionary: [String]) throws(ChallengeError) -> String {
        let word = challenge.word
        guard (4...7).contains(word.count), challenge.rules.allows(word),
              let index = binarySearch(dictionary, word), index < 1 << 14 else { throw .cannotEncode(word) }
        let packBits = challenge.pack.map { (UInt64(packHash($0.id)) << 6) | UInt64($0.version & 63) } ?? 0
        var payload = UInt64(index)
        payload |= UInt64(word.count - 4) << 14
        payload |= (challenge.rules == .mastermind ? 1 : 0) << 16
        payload |= (challenge.hard ? 1 : 0) << 17
        payload |= packBits << 18                               // 18 bits: hash 12, version 6
        let value = (UInt64(check(payload)) << 36) | payload    // 24 + 36 = 60 bits
        return String(decoding: spell(scramble(value)), as: UTF8.self)
    }

    /// The challenge a code names. `lexicon` gives the word back; `packIDs` are the packs this
    /// machine has, to name the pack (a word from a pack it lacks is still played, as a word
    /// of no pack).
    public static func decode(_ code: String, lexicon: Lexicon, packIDs: [String]) throws(ChallengeError) -> Challenge {
        let shown = String(code.prefix(40))
        guard let value = read(code) else { throw .malformed(shown) }
        let plain = unscramble(value)
        let payload = plain & ((1 << 36) - 1)
        guard UInt32(plain >> 36) == check(payload) else { throw .doesNotCheck(shown) }
        let index = Int(payload & 0x3FFF)
        let length = Int((payload >> 14) & 3) + 4
        let rules: Rules = (payload >> 16) & 1 == 1 ? .mastermind : .classic
        let hard = (payload >> 17) & 1 == 1
        let hash = UInt16((payload >> 24) & 0xFFF), version = Int((payload >> 18) & 63)
        let words = lexicon.words(ofLength: length)
        guard index < words.count, rules.allows(words[index]) else { throw .unknownWord(shown) }
        let pack = hash == 0 && version == 0 ? nil : packIDs.sorted().first { packHash($0) == hash }.map { (id: $0, version: version) }
        return Challenge(pack: pack, word: words[index], rules: rules, hard: hard)
    }

    // MARK: The parts

    /// 12 bits, never 0 (0 with version 0 means "no pack").
    static func packHash(_ id: String) -> UInt16 {
        UInt16(truncatingIfNeeded: fnv1a(Array(id.utf8), seed: 0x5A17) % 4095 + 1)
    }

    static func check(_ payload: UInt64) -> UInt32 {
        var bytes: [UInt8] = []
        for shift in stride(from: 0, to: 40, by: 8) { bytes.append(UInt8(truncatingIfNeeded: payload >> UInt64(shift))) }
        return UInt32(truncatingIfNeeded: fnv1a(bytes, seed: 0xC0DE)) & 0xFF_FFFF
    }

    static func fnv1a(_ bytes: [UInt8], seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A four-round Feistel permutation of 60 bits (two halves of 30), keyed by fixed constants:
    /// it is its own kind of shuffle, undone exactly by `unscramble`.
    static let keys: [UInt64] = [0x2F6B_1D35, 0x1A3C_5E7F, 0x3B8D_2C41, 0x0E5F_A963]
    static let half: UInt64 = (1 << 30) - 1

    static func round(_ x: UInt64, _ key: UInt64) -> UInt64 {
        var h = (x ^ key) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return h & half
    }

    static func scramble(_ value: UInt64) -> UInt64 {
        var left = value >> 30, right = value & half
        for key in keys { (left, right) = (right, left ^ round(right, key)) }
        return (left << 30) | right
    }

    static func unscramble(_ value: UInt64) -> UInt64 {
        var left = value >> 30, right = value & half
        for key in keys.reversed() { (left, right) = (right ^ round(left, key), left) }
        return (left << 30) | right
    }

    static func spell(_ value: UInt64) -> [UInt8] {
        (0..<length).reversed().map { alphabet[Int((value >> UInt64($0 * 5)) & 31)] }
    }

    /// The 60 bits of a code as typed, or nil when it is not 12 characters of the alphabet.
    static func read(_ code: String) -> UInt64? {
        var value: UInt64 = 0, count = 0
        for byte in code.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") { continue }
            var c = byte
            if (97...122).contains(c) { c -= 32 }
            switch c {
            case UInt8(ascii: "O"): c = UInt8(ascii: "0")
            case UInt8(ascii: "I"), UInt8(ascii: "L"): c = UInt8(ascii: "1")
            default: break
            }
            guard let digit = alphabet.firstIndex(of: c), count < length else { return nil }
            value = value << 5 | UInt64(digit)
            count += 1
        }
        return count == length ? value : nil
    }

    static func binarySearch(_ sorted: [String], _ word: String) -> Int? {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < word { low = mid + 1 } else { high = mid }
        }
        return low < sorted.count && sorted[low] == word ? low : nil
    }
}
