import Foundation
import QiktionaryCore
import QiktionaryResources
import Testing

/// Shared pieces of the fuzz tests: the scale knob, seeds, timing, and generators of bad bytes.
///
/// Every case is drawn from `SeededGenerator(seed:)`, so a failure message names the seed and
/// the case index and `QIKTIONARY_FUZZ_SEED=<seed>` replays that batch first. The counts grow
/// with `QIKTIONARY_FUZZ_SCALE` (default 1) for longer runs.
enum Fuzz {
    static let environment = ProcessInfo.processInfo.environment

    /// Multiplies every case count; 1 in CI.
    static let scale: Double = {
        guard let text = environment["QIKTIONARY_FUZZ_SCALE"], let value = Double(text), value > 0 else { return 1 }
        return value
    }()

    /// A base seed to replay instead of the fixed one (the failure message prints it).
    static let seedOverride: UInt64? = environment["QIKTIONARY_FUZZ_SEED"].flatMap { text in
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    static func count(_ base: Int) -> Int { max(1, Int((Double(base) * scale).rounded())) }

    /// The seed of one batch: fixed per kind and batch, so every run draws the same cases.
    static func seed(kind: UInt64, batch: Int) -> UInt64 {
        (seedOverride ?? (0x514B_0000_0000_0000 | kind << 32)) &+ UInt64(batch)
    }

    /// A label to put in every failure message.
    static func label(_ seed: UInt64, _ index: Int) -> String {
        "[seed 0x\(String(seed, radix: 16)) case \(index)]"
    }

    /// Prints how many cases a batch ran and how long it took (the report's numbers).
    static func report(_ kind: String, batch: Int, cases: Int, since start: Date) {
        print("fuzz \(kind) batch \(batch): \(cases) cases in \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    }

    /// Longest one operation may take before it counts as a hang.
    static let slowLimit: TimeInterval = 5

    /// Runs `body`, recording an issue when it took longer than `slowLimit`.
    @discardableResult
    static func bounded<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        let start = Date()
        let result = try body()
        let elapsed = Date().timeIntervalSince(start)
        if elapsed > slowLimit {
            Issue.record("took \(String(format: "%.1f", elapsed)) s (over \(slowLimit) s): \(what())")
        }
        return result
    }

    /// True when the text would print on more than one line.
    static func spansLines(_ text: String) -> Bool { text.contains(where: \.isNewline) }

    /// Whether text holds a character a terminal could obey: C0 controls but the line break and
    /// tab, DEL, C1 controls, the bidirectional embeddings, overrides and isolates.
    static func commandsTheTerminal(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0A, 0x09: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    /// Whole sequences a terminal obeys: colour, the window title, the clipboard, clearing the
    /// screen, a C1 introducer, a bidirectional override and isolate.
    static let terminalSequences = [
        "\u{1B}[31mRED\u{1B}[0m", "\u{1B}]0;TITLE\u{07}", "\u{1B}]52;c;aGk=\u{07}", "\u{1B}[2J\u{1B}[H", "\u{9B}31m",
        "\u{202E}desrever\u{202C}", "\u{2066}iso\u{2069}", "\u{1B}P+q\u{1B}\\",
    ]

    // MARK: Shipped content, loaded once

    static let lexicon: Lexicon = try! BundledContent.lexicon()

    static let dictionary: [String] = {
        let text = (try? String(contentsOf: BundledContent.dictionaryURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }()

    static let wordsByLength: [Int: [String]] = Dictionary(grouping: dictionary, by: \.count)

    static let packFiles: [URL] = {
        let folder = BundledContent.packsFolder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
    }()

    static let packData: [(name: String, data: Data)] = packFiles.map { ($0.lastPathComponent, try! Data(contentsOf: $0)) }
}

/// Generators of hostile values, shared by every kind of case.
extension SeededGenerator {
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &self)] }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }

    /// A length that is usually small and sometimes enormous.
    mutating func length(upTo usual: Int, rarely huge: Int) -> Int {
        chance(0.02) ? int(usual...huge) : int(0...usual)
    }

    /// Scalars that tend to break parsers and terminals.
    static let nastyScalars: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\t", "\u{B}", "\u{C}", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}",
        "\u{200B}", "\u{200D}", "\u{200E}", "\u{202E}", "\u{2028}", "\u{2029}", "\u{9B}", "\u{9D}", "\u{90}", "\u{202A}",
        "\u{202B}", "\u{202C}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{3000}", "\u{FEFF}", "\u{FFFD}",
        "\u{FFFF}", "\u{10FFFF}", "\u{301}", "\u{308}", "é", "ï", "ß", "ñ", "Å", "ø", "œ", "ﬁ", "İ", "ı", "Σ",
        "字", "😀", "👩", "🏽", "\u{1F1FA}", "/", "\\", "\"", "'", "`", "$", "%", "{", "}", "[", "]", ":", ",", "-", ".",
        "0", "9", "a", "z", "A", "Z", " ",
    ]

    /// Any Unicode scalar, weighted towards the nasty ones.
    mutating func scalar() -> Unicode.Scalar {
        if chance(0.5) { return pick(Self.nastyScalars) }
        if chance(0.5) { return Unicode.Scalar(UInt8.random(in: 0...127, using: &self)) }
        while true {
            if let s = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &self)) { return s }
        }
    }

    mutating func unicodeString(_ count: Int) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<count { s.append(scalar()) }
        return String(s)
    }

    /// Raw bytes read as UTF-8 the way a reader of a pipe would (invalid bytes become U+FFFD).
    mutating func byteString(_ count: Int) -> String { String(decoding: bytes(count), as: UTF8.self) }

    /// A dictionary word of some length, or a made-up one when none has that length.
    mutating func word(length: Int) -> String {
        if let words = Fuzz.wordsByLength[length], !words.isEmpty { return pick(words) }
        return String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 97...122, using: &self))) })
    }

    /// Changes a string a little: a character inserted, deleted, doubled, swapped or recased.
    mutating func mutate(_ text: String) -> String {
        var chars = Array(text)
        for _ in 0..<int(1...3) {
            switch int(0...6) {
            case 0: chars.insert(Character(scalar()), at: int(0...chars.count))
            case 1: if !chars.isEmpty { chars.remove(at: int(0...chars.count - 1)) }
            case 2: if !chars.isEmpty { let i = int(0...chars.count - 1); chars.insert(chars[i], at: i) }
            case 3: if chars.count > 1 { let i = int(0...chars.count - 2); chars.swapAt(i, i + 1) }
            case 4: chars = Array(String(chars).uppercased())
            case 5: if !chars.isEmpty { chars.removeLast(int(1...chars.count)) }
            default: chars.append(contentsOf: String(repeating: " ", count: int(1...3)))
            }
        }
        return String(chars)
    }

    /// Changes bytes: flips, truncation, insertion, duplication of a slice, random overwrite.
    mutating func mutate(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<int(1...4) {
            switch int(0...6) {
            case 0: if !bytes.isEmpty { let i = int(0...bytes.count - 1); bytes[i] ^= UInt8(1 << int(0...7)) }
            case 1: if !bytes.isEmpty { bytes.removeLast(int(1...bytes.count)) }
            case 2: bytes.insert(contentsOf: self.bytes(int(1...16)), at: int(0...bytes.count))
            case 3:
                if bytes.count > 2 {
                    let a = int(0...bytes.count - 2), b = int(a + 1...min(bytes.count, a + 64))
                    bytes.insert(contentsOf: bytes[a..<b], at: int(0...bytes.count))
                }
            case 4: if !bytes.isEmpty { let i = int(0...bytes.count - 1); bytes[i] = UInt8.random(in: 0...255, using: &self) }
            case 5: if bytes.count > 2 { let a = int(0...bytes.count - 2); bytes.removeSubrange(a..<min(bytes.count, a + int(1...32))) }
            default: if !bytes.isEmpty { let i = int(0...bytes.count - 1); bytes[i] = pick(Array("{}[]\":,0-9e.\\".utf8)) }
            }
        }
        return Data(bytes)
    }

    /// Names a hostile folder or script would use for files and arguments.
    mutating func hostileName() -> String {
        switch int(0...9) {
        case 0: return pick(["..", ".", "../x", "../../etc/passwd", "/", "", " ", "-", "--", "~", "$HOME", "*", "?"])
        case 1: return "x.sync-conflict-20240101-120000-ABCDEFG"
        case 2: return "head (conflicted copy 2024-01-01)"
        case 3: return ".tmp-\(int(0...99999))-1-x"
        case 4: return String(repeating: pick(["a", "é", "字", "."]), count: int(81...300))
        case 5: return "bad\u{1}name\u{7F}"
        case 6: return "new\nline"
        case 7: return unicodeString(int(1...12))
        case 8: return "\(pick(["A", "g0", "g1", "Games", "ReadingList", "head", "000000000001.seg"]))\(pick(["", "~", ".bak", ".seg", " ", "\u{0}"]))"
        default: return String(int(0...Int.max), radix: 36)
        }
    }
}
