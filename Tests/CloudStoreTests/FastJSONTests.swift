@testable import CloudStore
import Foundation
import XCTest

/// BodyCodec against Foundation: it must write the bytes `JSONEncoder` (sorted keys) writes, and
/// accept and refuse exactly what `JSONDecoder` accepts and refuses, with equal values. Bodies
/// come from a seeded generator, are re-spelled (key order, whitespace, escapes, number forms),
/// given unknown and repeated keys, and damaged byte by byte; every case is put to both.
///
/// Seeds are fixed, so every run draws the same cases. As in the fuzz tests,
/// `QIKTIONARY_FUZZ_SCALE` multiplies the case counts and `QIKTIONARY_FUZZ_SEED` draws others.
final class FastJSONTests: XCTestCase {
    static let scale: Double = ProcessInfo.processInfo.environment["QIKTIONARY_FUZZ_SCALE"].flatMap(Double.init).map { max($0, 0.01) } ?? 1
    static let seedOverride: UInt64? = ProcessInfo.processInfo.environment["QIKTIONARY_FUZZ_SEED"].flatMap { text in
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    static func count(_ base: Int) -> Int { max(1, Int((Double(base) * scale).rounded())) }
    static func seed(_ fixed: UInt64) -> UInt64 { seedOverride.map { $0 &+ fixed } ?? fixed }
    // MARK: Encoding

    func testEncodingIsByteIdenticalToJSONEncoderAndRoundTrips() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0001))
        let encoder = Self.sortedEncoder()
        for round in 0..<Self.count(300) {
            let segment = BodyGenerator.segment(&random, entries: Int.random(in: 0...12, using: &random))
            let snapshot = BodyGenerator.snapshot(&random, entries: Int.random(in: 0...12, using: &random))

            let segmentBytes = try BodyCodec.encode(segment)
            XCTAssertEqual(segmentBytes, try encoder.encode(segment), "segment \(round) is not written as JSONEncoder writes it")
            XCTAssertEqual(try BodyCodec.decodeSegment(segmentBytes), segment, "segment \(round) does not read back")
            XCTAssertEqual(try JSONDecoder().decode(SegmentBody.self, from: segmentBytes), segment)

            let snapshotBytes = try BodyCodec.encode(snapshot)
            XCTAssertEqual(snapshotBytes, try encoder.encode(snapshot), "snapshot \(round) is not written as JSONEncoder writes it")
            XCTAssertEqual(try BodyCodec.decodeSnapshot(snapshotBytes), snapshot, "snapshot \(round) does not read back")
            XCTAssertEqual(try JSONDecoder().decode(SnapshotBody.self, from: snapshotBytes), snapshot)
        }
    }

    func testALargeSegmentOfGameRecordsIsWrittenAndReadAsFoundationDoes() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0002))
        let segment = BodyGenerator.guessSegment(&random, entries: CloudLimits.maxRecordsPerCommit)
        let bytes = try BodyCodec.encode(segment)
        XCTAssertEqual(bytes, try Self.sortedEncoder().encode(segment))
        XCTAssertEqual(try BodyCodec.decodeSegment(bytes), segment)
        XCTAssertEqual(segment.entries.count, CloudLimits.maxRecordsPerCommit)
    }

    func testANonFiniteDoubleCannotBeWrittenEitherWay() {
        for value in [Double.nan, .infinity, -.infinity] {
            var random = Seeded(seed: Self.seed(0x5EED_0003))
            var segment = BodyGenerator.segment(&random, entries: 1)
            segment.entries[0].fields = ["ratio": .double(value)]
            XCTAssertThrowsError(try Self.sortedEncoder().encode(segment))
            XCTAssertThrowsError(try BodyCodec.encode(segment), "\(value) was written")
        }
    }

    // MARK: Decoding

    func testDecodingAgreesWithJSONDecoderOnRespelledAndDamagedBodies() {
        var random = Seeded(seed: Self.seed(0x5EED_0004))
        var tally = Tally(), respellings = Tally(), lenient = Tally()
        for round in 0..<Self.count(250) {
            let isSegment = round % 2 == 0
            let entries = Int.random(in: 0...3, using: &random)
            let tree = isSegment
                ? JSONTree(BodyGenerator.segment(&random, entries: entries))
                : JSONTree(BodyGenerator.snapshot(&random, entries: entries))

            // The same body, spelled differently.
            for _ in 0..<3 {
                var style = RenderStyle.random(&random)
                style.respellNumbers = false
                let bytes = Renderer.render(tree, style: style, random: &random)
                respellings.count(assertAgree(bytes, segment: isSegment, "respelled body \(round) [seed 0x\(String(Self.seed(0x5EED_0004), radix: 16))]"))
                XCTAssertTrue(respellings.lastAccepted, "a mere respelling of body \(round) was refused: \(Self.show(bytes))")
            }
            // Unknown keys and later repeats of known ones, holding junk only a scanner checks:
            // JSONDecoder accepts these, so the values read must be equal.
            for _ in 0..<3 {
                let mutated = TreeMutator.mutate(tree, lenient: true, random: &random)
                var style = RenderStyle.random(&random)
                style.respellNumbers = false
                let bytes = Renderer.render(mutated, style: style, random: &random)
                lenient.count(assertAgree(bytes, segment: isSegment, "body \(round) with ignored keys [seed 0x\(String(Self.seed(0x5EED_0004), radix: 16))]"))
            }
            // Anything: missing keys, wrong types, odd numbers, junk where something is read.
            for _ in 0..<6 {
                let mutated = TreeMutator.mutate(tree, lenient: false, random: &random)
                let bytes = Renderer.render(mutated, style: .random(&random), random: &random)
                tally.count(assertAgree(bytes, segment: isSegment, "mutated body \(round) [seed 0x\(String(Self.seed(0x5EED_0004), radix: 16))]"))
            }
            // Damaged bytes.
            let clean = Renderer.render(tree, style: RenderStyle(), random: &random)
            for _ in 0..<6 {
                let bytes = ByteMutator.mutate(clean, random: &random)
                tally.count(assertAgree(bytes, segment: isSegment, "damaged body \(round) [seed 0x\(String(Self.seed(0x5EED_0004), radix: 16))]"))
            }
        }
        // Both outcomes must have been exercised in quantity, or the agreement means little.
        XCTAssertEqual(respellings.refused, 0)
        XCTAssertGreaterThan(lenient.accepted, lenient.total * 8 / 10, "ignored keys were not ignored")
        XCTAssertGreaterThan(tally.accepted, tally.total / 50, "too few mutated bodies were accepted to compare values")
        XCTAssertGreaterThan(tally.refused, tally.total / 2, "too few mutated bodies were refused")
    }

    func testTheFrozenFixturesDecodeEquallyAndAreWrittenIdentically() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cloud")
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
        var checked: [String: Int] = [:]
        for path in paths where path.hasSuffix(".seg") || path.hasSuffix(".snap") {
            let file = try Data(contentsOf: root.appendingPathComponent(path))
            let newline = try XCTUnwrap(file.firstIndex(of: UInt8(ascii: "\n")), "\(path) has no header line")
            XCTAssertTrue(file.starts(with: Data("QKCS 1 ".utf8)), "\(path) has no header")
            let body = Data(file[file.index(after: newline)...])
            if path.hasSuffix(".seg") {
                let expected = try JSONDecoder().decode(SegmentBody.self, from: body)
                XCTAssertEqual(try BodyCodec.decodeSegment(body), expected, path)
                XCTAssertEqual(try BodyCodec.encode(expected), body, "\(path) would not be written the same way")
                checked["seg", default: 0] += 1
            } else {
                let expected = try JSONDecoder().decode(SnapshotBody.self, from: body)
                XCTAssertEqual(try BodyCodec.decodeSnapshot(body), expected, path)
                XCTAssertEqual(try BodyCodec.encode(expected), body, "\(path) would not be written the same way")
                checked["snap", default: 0] += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked["seg"] ?? 0, 1, "no segment fixture found")
        XCTAssertGreaterThanOrEqual(checked["snap"] ?? 0, 1, "no snapshot fixture found")
    }

    /// JSONDecoder's leniencies and refusals, each stated outright so a change on either side shows.
    func testJSONDecodersEdgeCasesAreMatched() throws {
        func segment(_ entry: String = Self.entry, extra: String = "") -> String {
            #"{"generation":"g0","device":"A","zone":"Games","seq":3,"hlc":{"millis":5,"counter":0},"entries":[\#(entry)]\#(extra)}"#
        }
        let accepted: [(String, String)] = [
            ("trailing commas", #"{"generation":"g0","device":"A","zone":"Games","seq":3,"hlc":{"millis":5,"counter":0,},"entries":[\#(Self.entry),],}"#),
            ("first of repeated keys wins", segment(extra: #","seq":"not a number","device":"bad/name""#)),
            ("scanner-only check of ignored values", segment(extra: #","x":[01,-,1-2+eE,"\x\u12zz\u0041",{"\u00ff":nul0}]"#.replacingOccurrences(of: "nul0", with: "null"))),
            ("a raw control character in an ignored string", segment(extra: ",\"x\":\"\u{1}\"")),
            ("integers spelled 3.0 and 3e0", segment(Self.entry.replacingOccurrences(of: #""seq":3"#, with: #""seq":3.0"#), extra: "").replacingOccurrences(of: #""seq":3,"hlc""#, with: #""seq":3e0,"hlc""#)),
            ("-0 as an unsigned counter", segment().replacingOccurrences(of: #""counter":0"#, with: #""counter":-0"#)),
            ("unknown keys beside a field's type key", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"note":[1],"int":4,"int":"x"}"#))),
            ("escapes everywhere", segment(Self.entry.replacingOccurrences(of: #""name":"game-1""#, with: #""n\u0061me":"g\u0061me\/1\ud83d\ude00\n""#))),
            ("null fields", segment(Self.entry.replacingOccurrences(of: #"{"guesses":{"int":4}}"#, with: "null"))),
            ("whitespace", " \n\t\r" + segment().replacingOccurrences(of: ",", with: " ,\n\t") + "\r\n "),
            ("a 500-deep ignored value", segment(extra: #","x":"# + String(repeating: "[", count: 500) + String(repeating: "]", count: 500))),
        ]
        for (what, json) in accepted {
            XCTAssertTrue(assertAgree(Array(json.utf8), segment: true, what), "\(what) was refused")
        }
        let refused: [(String, String)] = [
            ("a fraction for an integer", segment().replacingOccurrences(of: #""seq":3,"hlc""#, with: #""seq":3.5,"hlc""#)),
            ("Int64 overflow", segment().replacingOccurrences(of: #""millis":5"#, with: #""millis":9223372036854775808"#)),
            ("UInt32 overflow", segment().replacingOccurrences(of: #""counter":0"#, with: #""counter":4294967296"#)),
            ("a leading zero", segment().replacingOccurrences(of: #""seq":3,"hlc""#, with: #""seq":03,"hlc""#)),
            ("two type keys", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"int":4,"bool":true}"#))),
            ("no type key", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"integer":4}"#))),
            ("a lone surrogate", segment(Self.entry.replacingOccurrences(of: #""game-1""#, with: #""\ud83d""#))),
            ("a bad escape", segment(Self.entry.replacingOccurrences(of: #""game-1""#, with: #""\x""#))),
            ("a raw control character in a name", segment(Self.entry.replacingOccurrences(of: #""game-1""#, with: "\"a\u{1}b\""))),
            ("an invalid device name", segment(Self.entry.replacingOccurrences(of: #""createdBy":"A""#, with: #""createdBy":"../A""#))),
            ("an invalid generation", segment().replacingOccurrences(of: #""generation":"g0""#, with: #""generation":"x0""#)),
            ("a missing key", segment().replacingOccurrences(of: #""zone":"Games","#, with: "")),
            ("null where a string belongs", segment(Self.entry.replacingOccurrences(of: #""game-1""#, with: "null"))),
            ("a double out of range", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"double":1e400}"#))),
            ("a double underflowing to zero", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"double":1e-400}"#))),
            ("bad base64", segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: #"{"bytes":"A"}"#))),
            ("a 513-deep ignored value", segment(extra: #","x":"# + String(repeating: "[", count: 513) + String(repeating: "]", count: 513))),
            ("an empty array slot", segment(extra: #","x":[,]"#)),
            ("a misspelled literal in an ignored value", segment(extra: #","x":nul"#)),
            ("bytes after the body", segment() + "x"),
            ("a second body", segment() + segment()),
            ("an array body", "[" + segment() + "]"),
            ("nothing", ""),
        ]
        for (what, json) in refused {
            XCTAssertFalse(assertAgree(Array(json.utf8), segment: true, what), "\(what) was accepted")
        }

        // Invalid UTF-8: refused in a string that is read, passed over (as JSONDecoder does) where ignored.
        let valid = Array(segment().utf8)
        let badName = Array(segment(Self.entry.replacingOccurrences(of: "game-1", with: "game-\u{1}")).utf8).map { $0 == 1 ? 0xFF : $0 }
        let badIgnored = Array(segment(extra: ",\"x\":\"\u{1}\"").utf8).map { $0 == 1 ? 0xC0 : $0 }
        XCTAssertTrue(assertAgree(valid, segment: true, "valid"))
        XCTAssertFalse(assertAgree(badName, segment: true, "invalid UTF-8 in a name"))
        XCTAssertTrue(assertAgree(badIgnored, segment: true, "invalid UTF-8 in an ignored string"))

        // A byte order mark is skipped; UTF-16 bodies are JSONDecoder's to read.
        XCTAssertTrue(assertAgree([0xEF, 0xBB, 0xBF] + valid, segment: true, "UTF-8 byte order mark"))
        let utf16 = try XCTUnwrap(segment().data(using: .utf16LittleEndian))
        XCTAssertTrue(assertAgree(Array(utf16), segment: true, "UTF-16"))

        // The list limit.
        let list = { (count: Int) in
            segment(Self.entry.replacingOccurrences(of: #"{"int":4}"#, with: "{\"strings\":[" + Array(repeating: #""a""#, count: count).joined(separator: ",") + "]}"))
        }
        XCTAssertTrue(assertAgree(Array(list(CloudLimits.maxListItems).utf8), segment: true, "a full list"))
        XCTAssertFalse(assertAgree(Array(list(CloudLimits.maxListItems + 1).utf8), segment: true, "a list too long"))

        // Values read as well as accepted: the first of repeated keys, 3.0 as 3.
        let decoded = try BodyCodec.decodeSegment(Data(segment(extra: #","seq":7"#).utf8))
        XCTAssertEqual(decoded.seq, 3)
        let spelled = try BodyCodec.decodeSegment(Data(segment().replacingOccurrences(of: #""seq":3,"hlc""#, with: #""seq":30e-1,"hlc""#).utf8))
        XCTAssertEqual(spelled.seq, 3)

        // Field names are Swift strings: "é" and "e" + U+0301 are one name, so the second is a
        // repeat, only scanned. The same goes for "K" and the Kelvin sign.
        let equivalent = segment(Self.entry.replacingOccurrences(of: #"{"guesses":{"int":4}}"#,
                                                                 with: #"{"é":{"int":1},"é":"junk","K":{"int":2},"K":[-]}"#))
        XCTAssertTrue(assertAgree(Array(equivalent.utf8), segment: true, "canonically equivalent field names"))
        let fields = try XCTUnwrap(try BodyCodec.decodeSegment(Data(equivalent.utf8)).entries.first?.fields)
        XCTAssertEqual(fields, ["é": .int(1), "K": .int(2)])
    }

    /// Numbers where they are read, in every spelling: doubles on rounding edges, integers on the
    /// edges of Int64, Int and UInt32, fractions and exponents, malformed tokens.
    func testNumbersAreReadAsJSONDecoderReadsThem() {
        var random = Seeded(seed: Self.seed(0x5EED_0006))
        var tokens = [
            "2.2250738585072011e-308", "2.2250738585072012e-308", "1.7976931348623157e308", "1.7976931348623158e308",
            "1.7976931348623159e308", "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "9007199254740993", "0.1e1", "100000000000000000000000e-23", "1" + String(repeating: "0", count: 400) + "e-400",
            "0." + String(repeating: "0", count: 330) + "1", "-0", "-0.0", "0e0", "0E-0", "9223372036854775807",
            "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551616", "4294967295",
            "4294967296", "-4294967295", "1e18", "1e19", "9.223372036854775807e18", "12345678901234567890123",
            "00", "-", "--1", "+1", "1.", ".5", "1e", "1e+", "1.2.3", "1e5e5", "0x10", "1_000", "١",
        ]
        let digits = Array("0123456789")
        func digitRun(_ range: ClosedRange<Int>) -> String {
            String((0..<Int.random(in: range, using: &random)).map { _ in digits.randomElement(using: &random)! })
        }
        for _ in 0..<Self.count(1_500) {
            var token = Bool.random(using: &random) ? "-" : ""
            token += Int.random(in: 0..<5, using: &random) == 0 ? "0" : String(Int.random(in: 1...9, using: &random)) + digitRun(0...24)
            if Bool.random(using: &random) { token += "." + digitRun(1...24) }
            if Bool.random(using: &random) {
                token += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
                token += String(Int.random(in: 0...330, using: &random))
            }
            if Int.random(in: 0..<10, using: &random) == 0 {  // now and then, not quite a number
                let damage = ["0", ".", "e", "-", "+", "00"].randomElement(using: &random)!
                let at = token.index(token.startIndex, offsetBy: Int.random(in: 0...token.count, using: &random))
                token.insert(contentsOf: damage, at: at)
            }
            tokens.append(token)
        }
        var accepted = Tally()
        tokens += ["0e8", "0E8", "0.000E1", "0E-8", "-0E1", "0e400", "0.0E5", "0E00"]  // JSONDecoder's zero check
        for token in tokens {
            for kind in ["double", "int", "date"] {
                let json = #"{"generation":"g0","device":"A","zone":"Games","seq":3,"hlc":{"millis":5,"counter":0},"entries":["#
                    + Self.entry.replacingOccurrences(of: #"{"guesses":{"int":4}}"#, with: #"{"a":{"\#(kind)":\#(token)}}"#) + "]}"
                accepted.count(assertAgree(Array(json.utf8), segment: true, "\(token) as \(kind)"))
            }
            for (key, value) in [("seq", #""seq":\#(token),"hlc""#), ("counter", #""counter":\#(token)"#)] {
                let json = #"{"generation":"g0","device":"A","zone":"Games","seq":3,"hlc":{"millis":5,"counter":0},"entries":[]}"#
                    .replacingOccurrences(of: key == "seq" ? #""seq":3,"hlc""# : #""counter":0"#, with: value)
                accepted.count(assertAgree(Array(json.utf8), segment: true, "\(token) as \(key)"))
            }
        }
        XCTAssertGreaterThan(accepted.accepted, accepted.total / 4)
        XCTAssertGreaterThan(accepted.refused, accepted.total / 4)
    }

    func testHostileBodiesAreRefusedWithoutCrashing() {
        var random = Seeded(seed: Self.seed(0x5EED_0005))
        let deep = #"{"x":"# + String(repeating: "[{\"a\":", count: 200_000)
        XCTAssertFalse(assertAgree(Array(deep.utf8), segment: true, "200,000 levels"))
        XCTAssertFalse(assertAgree(Array(repeating: UInt8(ascii: "["), count: 1 << 20), segment: false, "a megabyte of ["))
        var refused = 0
        for round in 0..<300 {
            let count = Int.random(in: 1...200, using: &random)
            let alphabet = Array(#"{}[]":,-0123456789.eE+ truefalsn\u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            if !assertAgree(bytes, segment: round % 2 == 0, "noise \(round)") { refused += 1 }
        }
        XCTAssertEqual(refused, 300, "random noise was accepted")
    }

    // MARK: Support

    static let entry = #"{"name":"game-1","type":"Game","seq":3,"hlc":{"millis":5,"counter":0},"deleted":false,"fields":{"guesses":{"int":4}},"createdBy":"A","createdAt":{"millis":5,"counter":0}}"#

    static func sortedEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func show(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(600), as: UTF8.self).debugDescription
    }

    /// Puts `bytes` to JSONDecoder and to BodyCodec; fails unless both accept with equal values
    /// or both refuse. Returns whether JSONDecoder accepted.
    @discardableResult
    func assertAgree(_ bytes: [UInt8], segment: Bool, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let data = Data(bytes)
        if segment {
            return compare(Result { try JSONDecoder().decode(SegmentBody.self, from: data) },
                           Result { try BodyCodec.decodeSegment(data) }, bytes, what, file: file, line: line)
        }
        return compare(Result { try JSONDecoder().decode(SnapshotBody.self, from: data) },
                       Result { try BodyCodec.decodeSnapshot(data) }, bytes, what, file: file, line: line)
    }

    private func compare<Body: Equatable>(_ expected: Result<Body, any Error>, _ actual: Result<Body, any Error>, _ bytes: [UInt8],
                                          _ what: String, file: StaticString, line: UInt) -> Bool {
        switch (expected, actual) {
        case let (.success(foundation), .success(codec)):
            XCTAssertEqual(codec, foundation, "\(what): different values for \(Self.show(bytes))", file: file, line: line)
            return true
        case (.failure, .failure):
            return false
        case let (.success, .failure(error)):
            XCTFail("\(what): JSONDecoder accepts, BodyCodec refuses (\(error)): \(Self.show(bytes))", file: file, line: line)
            return true
        case (.failure(let error), .success):
            XCTFail("\(what): BodyCodec accepts, JSONDecoder refuses (\(error)): \(Self.show(bytes))", file: file, line: line)
            return false
        }
    }

    struct Tally {
        var accepted = 0, refused = 0, lastAccepted = false
        var total: Int { accepted + refused }
        mutating func count(_ wasAccepted: Bool) {
            lastAccepted = wasAccepted
            if wasAccepted { accepted += 1 } else { refused += 1 }
        }
    }
}

// The generator, re-speller and mutators, nested so their names stay out of the module's way.
extension FastJSONTests {
    // MARK: - Generated bodies

    /// The suite's SplitMix64 (see ReplicatedFolderTests): a fixed seed gives the same cases everywhere.
    typealias Seeded = SeededGenerator

    enum BodyGenerator {
        /// Pieces strings are made of: what JSON must escape, what it need not, what Unicode makes hard.
        static let pieces: [String] = [
            "a", "crane", "Z", "0", "9", "a9", "a10", " ", "-", "_", "/", "\"", "\\", "\\u0041", "\u{0}", "\u{1}", "\u{8}", "\t",
            "\n", "\u{B}", "\u{C}", "\r", "\u{1F}", "\u{7F}", "é", "e\u{301}", "\u{212A}", "\u{2028}", "中文", "😀", "👩‍👩‍👧",
            "\u{FFFD}", "\u{FEFF}", "\u{10FFFF}", "ß", "Ω",
        ]

        static func string(_ random: inout Seeded, pieces count: ClosedRange<Int> = 0...6) -> String {
            if Int.random(in: 0..<40, using: &random) == 0 {  // now and then a long one
                return (0..<Int.random(in: 200...2_000, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            }
            return (0..<Int.random(in: count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }

        static func folderName(_ random: inout Seeded, prefix: String = "") -> String {
            let first = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            let rest = first + ["_", "-"]
            let length = Int.random(in: 0...(Int.random(in: 0..<10, using: &random) == 0 ? 70 : 8), using: &random)
            let head = prefix.isEmpty ? String(first.randomElement(using: &random)!) : prefix
            return head + String((0..<length).map { _ in rest.randomElement(using: &random)! })
        }

        static func int64(_ random: inout Seeded) -> Int64 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return [Int64.min, .max, 0, -1, 1, Int64.min + 1, .max - 1].randomElement(using: &random)!
            case 1: return Int64(bitPattern: random.next())
            default: return Int64.random(in: -1_000...1_000_000, using: &random)
            }
        }

        static func double(_ random: inout Seeded) -> Double {
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                return [0.5, -0.0, 0, 1, 100, 1e16, 1e-7, 0.1, 1.0 / 3, 123_456_789_012_345_680, .leastNonzeroMagnitude,
                        .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 9_007_199_254_740_994]
                    .randomElement(using: &random)!
            case 1:
                var value: Double
                repeat { value = Double(bitPattern: random.next()) } while !value.isFinite
                return value
            case 2: return Double(Int.random(in: -100_000...100_000, using: &random))
            default: return Double.random(in: -1_000...1_000, using: &random)
            }
        }

        static func field(_ random: inout Seeded) -> FieldValue {
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return .string(string(&random))
            case 1: return .int(int64(&random))
            case 2: return .double(double(&random))
            case 3: return .bool(Bool.random(using: &random))
            // Whole milliseconds within ±300 years, so a date survives the trip through milliseconds.
            case 4: return .date(Date(timeIntervalSince1970: Double(Int64.random(in: -10_000_000_000_000...10_000_000_000_000, using: &random)) / 1000))
            case 5: return .bytes(Data((0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            default: return .strings((0..<Int.random(in: 0...4, using: &random)).map { _ in string(&random, pieces: 0...2) })
            }
        }

        static func clock(_ random: inout Seeded) -> HLCTimestamp {
            HLCTimestamp(millis: Int.random(in: 0..<4, using: &random) == 0 ? int64(&random) : Int64.random(in: 1_600_000_000_000...1_900_000_000_000, using: &random),
                         counter: Int.random(in: 0..<4, using: &random) == 0 ? UInt32.max : UInt32.random(in: 0...20, using: &random))
        }

        static func entry(_ random: inout Seeded, device: DeviceID) -> RecordEntry {
            let deleted = Int.random(in: 0..<5, using: &random) == 0
            var fields: [String: FieldValue]?
            if !deleted || Bool.random(using: &random) {
                var all: [String: FieldValue] = [:]
                for _ in 0..<Int.random(in: 0...9, using: &random) {
                    let name = Bool.random(using: &random) ? ["word", "game", "position", "playedAt", "a10", "a9", "B", "é"].randomElement(using: &random)! : string(&random, pieces: 0...3)
                    all[name] = field(&random)
                }
                fields = all
            }
            return RecordEntry(
                name: string(&random, pieces: 1...6), type: Bool.random(using: &random) ? "Guess" : string(&random, pieces: 1...3),
                seq: Int(int64(&random)), hlc: clock(&random), deleted: deleted, fields: fields,
                createdBy: Bool.random(using: &random) ? device : DeviceID(validated: folderName(&random)), createdAt: clock(&random))
        }

        static func segment(_ random: inout Seeded, entries count: Int) -> SegmentBody {
            let device = DeviceID(validated: folderName(&random))
            return SegmentBody(generation: CloudGeneration(validated: folderName(&random, prefix: "g\(Int.random(in: 0...9, using: &random))")),
                               device: device, zone: ZoneID(validated: folderName(&random)), seq: Int(int64(&random)), hlc: clock(&random),
                               entries: (0..<count).map { _ in entry(&random, device: device) })
        }

        static func snapshot(_ random: inout Seeded, entries count: Int) -> SnapshotBody {
            let device = DeviceID(validated: folderName(&random))
            return SnapshotBody(generation: CloudGeneration(validated: folderName(&random, prefix: "g\(Int.random(in: 0...9, using: &random))")),
                                device: device, zone: ZoneID(validated: folderName(&random)), base: Int(int64(&random)),
                                entries: (0..<count).map { _ in entry(&random, device: device) })
        }

        /// A commit of "Guess" records as the game writes them.
        static func guessSegment(_ random: inout Seeded, entries count: Int) -> SegmentBody {
            let device = DeviceID(validated: "mac-studio")
            let stamp = HLCTimestamp(millis: 1_765_000_000_000, counter: 3)
            let words = ["crane", "slate", "pious", "mourn", "fjord", "quilt"]
            return SegmentBody(generation: .initial, device: device, zone: ZoneID(validated: "Games"), seq: 17, hlc: stamp,
                               entries: (0..<count).map { position in
                let game = UUID(uuidString: String(format: "6f1c2b9e-4d3a-4c8b-9e7f-%012x", random.next() & 0xFFFF_FFFF_FFFF))!.uuidString.lowercased()
                let word = words.randomElement(using: &random)!
                return RecordEntry(name: "\(game)-\(word)", type: "Guess", seq: 17, hlc: stamp, deleted: false, fields: [
                    "game": .string(game), "word": .string(word), "position": .int(Int64(position % 6 + 1)),
                    "playedAt": .date(Date(timeIntervalSince1970: 1_765_000_000.123)), "playedOn": .string("Mac Studio"),
                    "device": .string("mac-studio"), "inPlace": .int(2), "inWord": .int(1),
                ], createdBy: device, createdAt: stamp)
            })
        }
    }

    // MARK: - Re-spelling bodies

    /// A body as JSON values, so it can be written with other spellings than JSONEncoder's.
    indirect enum JSONTree {
        case object([(key: String, value: JSONTree)])
        case array([JSONTree])
        case string(String)
        /// A number's text, as JSONEncoder writes it.
        case number(String)
        /// Written as is: literals, and junk only a scanner-level check (or none) would let through.
        case raw([UInt8])

        static let null = JSONTree.raw(Array("null".utf8))

        init(_ body: SegmentBody) {
            self = .object([("generation", .string(body.generation.name)), ("device", .string(body.device.name)),
                             ("zone", .string(body.zone.name)), ("seq", .number("\(body.seq)")), ("hlc", JSONTree(body.hlc)),
                             ("entries", .array(body.entries.map(JSONTree.init)))])
        }

        init(_ body: SnapshotBody) {
            self = .object([("generation", .string(body.generation.name)), ("device", .string(body.device.name)),
                             ("zone", .string(body.zone.name)), ("base", .number("\(body.base)")),
                             ("entries", .array(body.entries.map(JSONTree.init)))])
        }

        init(_ clock: HLCTimestamp) {
            self = .object([("millis", .number("\(clock.millis)")), ("counter", .number("\(clock.counter)"))])
        }

        init(_ entry: RecordEntry) {
            var pairs: [(key: String, value: JSONTree)] = [
                ("name", .string(entry.name)), ("type", .string(entry.type)), ("seq", .number("\(entry.seq)")),
                ("hlc", JSONTree(entry.hlc)), ("deleted", .raw(Array("\(entry.deleted)".utf8))),
                ("createdBy", .string(entry.createdBy.name)), ("createdAt", JSONTree(entry.createdAt)),
            ]
            if let fields = entry.fields {
                pairs.append(("fields", .object(fields.map { ($0.key, JSONTree($0.value)) })))
            }
            self = .object(pairs)
        }

        init(_ field: FieldValue) {
            switch field {
            case .string(let text): self = .object([("string", .string(text))])
            case .int(let number): self = .object([("int", .number("\(number)"))])
            case .double(let number):
                var text = number.description
                if text.hasSuffix(".0") { text.removeLast(2) }
                self = .object([("double", .number(text))])
            case .bool(let flag): self = .object([("bool", .raw(Array("\(flag)".utf8)))])
            case .date(let date): self = .object([("date", .number("\(Int64((date.timeIntervalSince1970 * 1000).rounded()))"))])
            case .bytes(let data): self = .object([("bytes", .string(data.base64EncodedString()))])
            case .strings(let list): self = .object([("strings", .array(list.map(JSONTree.string)))])
            }
        }
    }

    struct RenderStyle {
        var whitespace = 0.0
        var shuffleKeys = false
        var escapeProbability = 0.0
        var trailingCommas = 0.0
        var respellNumbers = false

        static func random(_ random: inout Seeded) -> RenderStyle {
            RenderStyle(whitespace: [0, 0.1, 0.5].randomElement(using: &random)!, shuffleKeys: Bool.random(using: &random),
                        escapeProbability: [0, 0.05, 0.5].randomElement(using: &random)!,
                        trailingCommas: [0, 0, 0.2].randomElement(using: &random)!, respellNumbers: Bool.random(using: &random))
        }
    }

    enum Renderer {
        static func render(_ tree: JSONTree, style: RenderStyle, random: inout Seeded) -> [UInt8] {
            var out: [UInt8] = []
            space(&out, style, &random)
            write(tree, into: &out, style, &random)
            space(&out, style, &random)
            return out
        }

        private static func space(_ out: inout [UInt8], _ style: RenderStyle, _ random: inout Seeded) {
            while Double.random(in: 0..<1, using: &random) < style.whitespace {
                out.append(Array(" \t\n\r".utf8).randomElement(using: &random)!)
            }
        }

        private static func write(_ tree: JSONTree, into out: inout [UInt8], _ style: RenderStyle, _ random: inout Seeded) {
            switch tree {
            case .object(var pairs):
                if style.shuffleKeys { pairs.shuffle(using: &random) }
                out.append(UInt8(ascii: "{"))
                for (offset, pair) in pairs.enumerated() {
                    if offset > 0 { out.append(UInt8(ascii: ",")) }
                    space(&out, style, &random)
                    string(pair.key, into: &out, style, &random)
                    space(&out, style, &random)
                    out.append(UInt8(ascii: ":"))
                    space(&out, style, &random)
                    write(pair.value, into: &out, style, &random)
                    space(&out, style, &random)
                }
                if !pairs.isEmpty, Double.random(in: 0..<1, using: &random) < style.trailingCommas { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "}"))
            case .array(let elements):
                out.append(UInt8(ascii: "["))
                for (offset, element) in elements.enumerated() {
                    if offset > 0 { out.append(UInt8(ascii: ",")) }
                    space(&out, style, &random)
                    write(element, into: &out, style, &random)
                    space(&out, style, &random)
                }
                if !elements.isEmpty, Double.random(in: 0..<1, using: &random) < style.trailingCommas { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "]"))
            case .string(let text):
                string(text, into: &out, style, &random)
            case .number(let text):
                out.append(contentsOf: style.respellNumbers ? respell(text, &random).utf8 : text.utf8)
            case .raw(let bytes):
                out.append(contentsOf: bytes)
            }
        }

        /// Other spellings of a number: some JSONDecoder takes for the same integer, some it refuses.
        private static func respell(_ text: String, _ random: inout Seeded) -> String {
            guard Int.random(in: 0..<4, using: &random) == 0 else { return text }
            let isInteger = !text.contains(where: { ".eE".contains($0) })
            let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
            let sign = text.hasPrefix("-") ? "-" : ""
            var forms = ["\(text)e0", "\(text)E+0", "\(sign)0\(digits)", "+\(digits)", "\(text).", "\(text)e", "-\(text)", "\(text)0e-1"]
            if isInteger { forms += ["\(text).0", "\(text).000", "\(text)00e-2", "\(text).5", "\(text)1", "1\(text)", "\(sign)0.\(digits)e\(digits.count)"] }
            if text == "0" { forms += ["-0", "-0.0", "0e5", "0.0000"] }
            return forms.randomElement(using: &random)!
        }

        private static func string(_ text: String, into out: inout [UInt8], _ style: RenderStyle, _ random: inout Seeded) {
            out.append(UInt8(ascii: "\""))
            for scalar in text.unicodeScalars {
                let escape = Double.random(in: 0..<1, using: &random) < style.escapeProbability
                switch scalar {
                case "\"": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\""#.utf8))
                case "\\": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\\"#.utf8))
                case "/" where escape: out.append(contentsOf: Bool.random(using: &random) ? Array(#"\/"#.utf8) : unicodeEscape(scalar, &random))
                case "\u{8}": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\b"#.utf8))
                case "\u{C}": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\f"#.utf8))
                case "\n": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\n"#.utf8))
                case "\r": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\r"#.utf8))
                case "\t": out.append(contentsOf: escape ? unicodeEscape(scalar, &random) : Array(#"\t"#.utf8))
                case _ where scalar.value < 0x20 || escape: out.append(contentsOf: unicodeEscape(scalar, &random))
                default: out.append(contentsOf: String(scalar).utf8)
                }
            }
            out.append(UInt8(ascii: "\""))
        }

        /// `\uXXXX`, as a surrogate pair beyond the BMP, in either case.
        private static func unicodeEscape(_ scalar: Unicode.Scalar, _ random: inout Seeded) -> [UInt8] {
            let units = Array(String(scalar).utf16)
            let upper = Bool.random(using: &random)
            return units.flatMap { unit -> [UInt8] in
                let hex = String(format: upper ? "%04X" : "%04x", unit)
                return Array("\\u\(hex)".utf8)
            }
        }
    }

    /// Changes to a body's structure: the things a careless or hostile writer might leave.
    enum TreeMutator {
        /// With `lenient`, only what JSONDecoder accepts: unknown keys and later repeats of
        /// known ones, holding values only its scanner checks, and reordered keys.
        static func mutate(_ tree: JSONTree, lenient: Bool, random: inout Seeded) -> JSONTree {
            var budget = Int.random(in: 1...3, using: &random)
            var result = tree
            // Walk until the budget is spent; each pass visits every node with a small chance.
            for _ in 0..<8 where budget > 0 {
                result = visit(result, depth: 1, lenient: lenient, budget: &budget, &random)
            }
            return result
        }

        /// `depth`: how deeply the JSON nests at `tree`'s brackets.
        private static func visit(_ tree: JSONTree, depth: Int, lenient: Bool, budget: inout Int, _ random: inout Seeded) -> JSONTree {
            guard budget > 0 else { return tree }
            if Int.random(in: 0..<12, using: &random) == 0 {
                budget -= 1
                return lenient ? ignoredKeys(tree, depth: depth, &random) : change(tree, depth: depth, &random)
            }
            switch tree {
            case .object(let pairs):
                return .object(pairs.map { ($0.key, visit($0.value, depth: depth + 1, lenient: lenient, budget: &budget, &random)) })
            case .array(let elements):
                return .array(elements.map { visit($0, depth: depth + 1, lenient: lenient, budget: &budget, &random) })
            default:
                return tree
            }
        }

        private static func ignoredKeys(_ tree: JSONTree, depth: Int, _ random: inout Seeded) -> JSONTree {
            guard case .object(var pairs) = tree else { return tree }
            switch Int.random(in: 0..<3, using: &random) {
            case 0:  // a key nobody reads (the pieces spell none of the known ones)
                pairs.insert((BodyGenerator.string(&random, pieces: 1...2), scannerOnlyJunk(depth: depth, &random)),
                             at: Int.random(in: 0...pairs.count, using: &random))
            case 1 where !pairs.isEmpty:  // a known key again, after the first: only the first is read
                let index = Int.random(in: 0..<pairs.count, using: &random)
                pairs.insert((pairs[index].key, scannerOnlyJunk(depth: depth, &random)), at: Int.random(in: (index + 1)...pairs.count, using: &random))
            default:
                pairs.shuffle(using: &random)
            }
            return .object(pairs)
        }

        /// Values JSONDecoder's scanner lets through where nothing is decoded.
        static func scannerOnlyJunk(depth: Int, _ random: inout Seeded) -> JSONTree {
            let raw = [
                "01", "-", "1-2+3eE", "1.5", "1e400", "true", "null", "[1,]", "{\"a\":1,}", "[]", "{}", "\"\\x\"",
                "\"\\u12zz\"", "\"\\ud800\"", "\"\u{1}\"", "{\"\\x\":[-,0-]}", "\"../x\"", "{\"int\":1,\"bool\":2}",
            ]
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // deep, but within the 512 levels JSONDecoder allows
                let levels = Int.random(in: 0...(511 - depth), using: &random)
                return .raw(Array((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8))
            case 1:  // invalid UTF-8, in a string nothing reads
                return .raw(Array("\"".utf8) + [0xFF, 0xC0, 0x80, 0xED, 0xA0, 0x80].shuffled(using: &random) + Array("\"".utf8))
            case 2:
                return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in scannerOnlyJunk(depth: depth + 1, &random) })
            default:
                return .raw(Array(raw.randomElement(using: &random)!.utf8))
            }
        }

        private static func change(_ tree: JSONTree, depth: Int, _ random: inout Seeded) -> JSONTree {
            switch tree {
            case .object(var pairs):
                switch Int.random(in: 0..<7, using: &random) {
                case 0: pairs.insert((BodyGenerator.string(&random, pieces: 1...2), junk(depth: depth, &random)), at: Int.random(in: 0...pairs.count, using: &random))
                case 1 where !pairs.isEmpty:  // the same key again, before or after, with another value
                    let copied = pairs.randomElement(using: &random)!
                    let value = Bool.random(using: &random) ? copied.value : junk(depth: depth, &random)
                    pairs.insert((copied.key, value), at: Int.random(in: 0...pairs.count, using: &random))
                case 2 where !pairs.isEmpty: pairs.remove(at: Int.random(in: 0..<pairs.count, using: &random))
                case 3:  // a second type key, or one nobody knows
                    let key = ["string", "int", "double", "bool", "date", "bytes", "strings", "Int", "in\u{74}", "x"].randomElement(using: &random)!
                    pairs.insert((key, junk(depth: depth, &random)), at: Int.random(in: 0...pairs.count, using: &random))
                case 4 where !pairs.isEmpty:  // a known key with a value of another kind
                    let index = Int.random(in: 0..<pairs.count, using: &random)
                    pairs[index].value = junk(depth: depth, &random)
                case 5 where !pairs.isEmpty:  // a key spelled almost right: another key
                    let index = Int.random(in: 0..<pairs.count, using: &random)
                    pairs[index].key = pairs[index].key.capitalized
                default: return .object(pairs.shuffled(using: &random))
                }
                return .object(pairs)
            case .array(var elements):
                if !elements.isEmpty, Bool.random(using: &random) {
                    elements.remove(at: Int.random(in: 0..<elements.count, using: &random))
                } else {
                    elements.insert(Bool.random(using: &random) ? (elements.first ?? .null) : junk(depth: depth, &random),
                                    at: Int.random(in: 0...elements.count, using: &random))
                }
                return .array(elements)
            case .string:
                return Bool.random(using: &random) ? .string(BodyGenerator.string(&random)) : junk(depth: depth, &random)
            default:
                return junk(depth: depth, &random)
            }
        }

        /// A value of any kind, valid or not: deep nesting, scanner-only junk, invalid UTF-8, names a
        /// folder would refuse, numbers on the edge of their types.
        static func junk(depth: Int, _ random: inout Seeded) -> JSONTree {
            let raw: [String] = [
                "01", "-", "1-2+3eE", "1.5", "3.0", "1e3", "-0", "4294967295", "4294967296", "-1", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e400", "1e-400", "5e-324", "0.1e1",
                "true", "false", "null", "nul", "tru", "[1,]", "[,]", "{\"a\":1,}", "{,}", "{\"a\"}", "[]", "{}", "\"\\x\"",
                "\"\\u12zz\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"", "\"\u{1}\"", "\"a/b\"", "\"../x\"", "\"g1\"", "\"gx\"", "\"\"",
                "{\"int\":1}", "{\"int\":1.0}", "{\"string\":\"x\",\"int\":1}", "{\"strings\":[\"a\",null]}", "{\"bytes\":\"AAH+/w==\"}",
                "{\"date\":-1}", "{\"double\":-0}", "{\"millis\":1,\"counter\":2}", "{\"counter\":2}",
            ]
            switch Int.random(in: 0..<10, using: &random) {
            case 0:  // nesting around the 512 levels JSONDecoder allows, counted from here
                let levels = max(0, Int.random(in: 505...515, using: &random) - depth)
                return .raw(Array((String(repeating: "[", count: levels) + String(repeating: "]", count: levels)).utf8))
            case 1:
                return .raw(Array("\"".utf8) + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]].randomElement(using: &random)! + Array("\"".utf8))
            case 2:
                return .string(BodyGenerator.string(&random))
            case 3:
                return .object((0..<Int.random(in: 0...3, using: &random)).map { _ in (BodyGenerator.string(&random, pieces: 0...2), junk(depth: depth + 1, &random)) })
            case 4:
                return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in junk(depth: depth + 1, &random) })
            default:
                return .raw(Array(raw.randomElement(using: &random)!.utf8))
            }
        }
    }

    /// Byte-level damage: flips, cuts, insertions, deletions, copies.
    enum ByteMutator {
        static func mutate(_ clean: [UInt8], random: inout Seeded) -> [UInt8] {
            var bytes = clean
            for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0: bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                case 1: bytes.removeSubrange(Int.random(in: 0...bytes.count, using: &random)...)
                case 2: bytes.insert(Array(#"{}[]",:\ 0-.eE9tfnu/"#.utf8).randomElement(using: &random)!, at: at)
                case 3: bytes.remove(at: at)
                case 4: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...20, using: &random))
                    bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
                }
            }
            return bytes
        }
    }
}
