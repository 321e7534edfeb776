@testable import CloudStore
import Foundation
import Testing

/// BodyCodec's contract: it reads exactly what its writer writes and refuses everything else with
/// a reason. So the writer's bytes are pinned for hand-written bodies, every body ever written
/// (the frozen fixtures of every release) reads and is written again byte for byte, generated
/// bodies round-trip, and every other spelling (re-spelled, damaged, cut short, hostile) is
/// either refused with an `Unreadable` or is itself a body the writer writes: whatever decodes,
/// written again, gives back the very bytes that were read.
///
/// Seeds are fixed, so every run draws the same cases. As in the fuzz tests,
/// `QIKTIONARY_FUZZ_SCALE` multiplies the case counts and `QIKTIONARY_FUZZ_SEED` draws others.
@Suite struct BodyCodecTests {
    static let scale: Double = ProcessInfo.processInfo.environment["QIKTIONARY_FUZZ_SCALE"].flatMap(Double.init).map { max($0, 0.01) } ?? 1
    static let seedOverride: UInt64? = ProcessInfo.processInfo.environment["QIKTIONARY_FUZZ_SEED"].flatMap { text in
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    static func count(_ base: Int) -> Int { max(1, Int((Double(base) * scale).rounded())) }
    static func seed(_ fixed: UInt64) -> UInt64 { seedOverride.map { $0 &+ fixed } ?? fixed }
    static func seedLabel(_ fixed: UInt64) -> String { "[seed 0x\(String(seed(fixed), radix: 16))]" }

    // MARK: The writer

    @Test func theWritersBytesArePinned() throws {
        #expect(String(decoding: try BodyCodec.encode(Self.gameSegment), as: UTF8.self) == Self.gameSegmentText)
        #expect(String(decoding: try BodyCodec.encode(Self.edgeSnapshot), as: UTF8.self) == Self.edgeSnapshotText)
        let empty = SegmentBody(generation: .initial, device: DeviceID(validated: "A"), zone: ZoneID(validated: "Games"), seq: 0,
                                hlc: .zero, entries: [])
        #expect(String(decoding: try BodyCodec.encode(empty), as: UTF8.self)
            == #"{"device":"A","entries":[],"generation":"g0","hlc":{"counter":0,"millis":0},"seq":0,"zone":"Games"}"#)
        // And they read back as what was written.
        #expect(try BodyCodec.decodeSegment(Data(Self.gameSegmentText.utf8)) == Self.gameSegment)
        #expect(try BodyCodec.decodeSnapshot(Data(Self.edgeSnapshotText.utf8)) == Self.edgeSnapshot)
        #expect(try BodyCodec.decodeSegment(try BodyCodec.encode(empty)) == empty)
    }

    @Test func aNonFiniteDoubleCannotBeWritten() {
        for value in [Double.nan, .infinity, -.infinity] {
            var segment = Self.gameSegment
            segment.entries[0].fields = ["ratio": .double(value)]
            #expect(throws: EncodingError.self, "\(value) was written") { try BodyCodec.encode(segment) }
            let snapshot = SnapshotBody(generation: .initial, device: segment.device, zone: segment.zone, base: 1, entries: segment.entries)
            #expect(throws: EncodingError.self, "\(value) was written") { try BodyCodec.encode(snapshot) }
        }
    }

    @Test func generatedBodiesRoundTrip() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0001))
        for round in 0..<Self.count(300) {
            let segment = BodyGenerator.segment(&random, entries: Int.random(in: 0...12, using: &random))
            let snapshot = BodyGenerator.snapshot(&random, entries: Int.random(in: 0...12, using: &random))
            let segmentBytes = try BodyCodec.encode(segment)
            let readSegment = try BodyCodec.decodeSegment(segmentBytes)
            #expect(readSegment == segment, "segment \(round) does not read back \(Self.seedLabel(0x5EED_0001))")
            #expect(try BodyCodec.encode(readSegment) == segmentBytes, "segment \(round) is not written again the same")

            let snapshotBytes = try BodyCodec.encode(snapshot)
            let readSnapshot = try BodyCodec.decodeSnapshot(snapshotBytes)
            #expect(readSnapshot == snapshot, "snapshot \(round) does not read back \(Self.seedLabel(0x5EED_0001))")
            #expect(try BodyCodec.encode(readSnapshot) == snapshotBytes, "snapshot \(round) is not written again the same")
            // Read entry by entry: the same entries, in order, and the rest of the body.
            var streamed: [RecordEntry] = []
            let rest = try BodyCodec.decodeSnapshot(snapshotBytes) { streamed.append($0) }
            #expect(streamed == snapshot.entries && rest.entries.isEmpty)
            #expect(SnapshotBody(generation: rest.generation, device: rest.device, zone: rest.zone, base: rest.base, entries: streamed) == snapshot)
        }
    }

    @Test func aFullSegmentOfGameRecordsRoundTrips() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0002))
        let segment = BodyGenerator.guessSegment(&random, entries: CloudLimits.maxRecordsPerCommit)
        let bytes = try BodyCodec.encode(segment)
        #expect(try BodyCodec.decodeSegment(bytes) == segment)
        #expect(segment.entries.count == CloudLimits.maxRecordsPerCommit)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"device":"mac-studio","entries":[{"createdAt":"#))
    }

    /// Every segment and snapshot body in the frozen folders: format version 1 (written by
    /// `JSONEncoder` with sorted keys), version 2, version 3 as written today (snapshot parts),
    /// and the whole cloud folder of the release before issue 12. Each reads, and is written
    /// again byte for byte.
    @Test func theBodiesOfEveryReleaseReadAndAreWrittenAgain() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let folders = ["CloudStoreTests/Fixtures/cloud", "CloudStoreTests/Fixtures/cloud-v2", "CloudStoreTests/Fixtures/cloud-v3",
                       "EndToEndTests/Fixtures/before-issue-12/cloud"]
        for folder in folders {
            let root = tests.appendingPathComponent(folder)
            let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).sorted()
            var checked: [String: Int] = [:]
            for path in paths where path.hasSuffix(".seg") || path.hasSuffix(".part") || (path.hasSuffix(".snap") && !folder.hasSuffix("v3")) {
                let isSegment = path.hasSuffix(".seg")
                let file = try Data(contentsOf: root.appendingPathComponent(path))
                let body = try CloudFileFormat.unseal(file, kind: isSegment ? .segment : path.hasSuffix(".part") ? .part : .snapshot).get()
                if isSegment {
                    #expect(try BodyCodec.encode(BodyCodec.decodeSegment(body)) == body, "\(folder)/\(path) would not be written the same")
                } else {
                    #expect(try BodyCodec.encode(BodyCodec.decodeSnapshot(body)) == body, "\(folder)/\(path) would not be written the same")
                }
                checked[isSegment ? "seg" : "snap", default: 0] += 1
            }
            #expect((checked["seg"] ?? 0) >= 1, "no segment found in \(folder)")
            if !folder.hasPrefix("EndToEnd") { #expect((checked["snap"] ?? 0) >= 1, "no snapshot found in \(folder)") }
        }
    }

    // MARK: Damage

    /// Every change of one byte to any other value, every byte removed, every byte inserted, and
    /// every cut, of two small written bodies (a segment with a field of every kind, a snapshot
    /// with a tombstone whose name needs every kind of escape). Each is refused with a reason, or
    /// is a body the writer writes (a digit of a number or a letter of a string changed): then it
    /// decodes to the value the writer writes as exactly those bytes.
    @Test(arguments: [true, false])
    func everySingleByteDamageIsRefusedOrIsAnotherWrittenBody(segment: Bool) throws {
        let clean = Array(segment ? Self.smallSegmentText.utf8 : Self.smallSnapshotText.utf8)
        #expect(try Self.expectRefusedOrCanonical(clean, segment: segment, "the body as written"), "the body as written is refused")
        var tally = Tally()
        for position in 0..<clean.count {
            var changed = clean, removed = clean
            removed.remove(at: position)
            tally.count(try Self.expectRefusedOrCanonical(removed, segment: segment, "byte \(position) removed"))
            for value in 0...255 {
                var inserted = clean
                inserted.insert(UInt8(value), at: position)
                tally.count(try Self.expectRefusedOrCanonical(inserted, segment: segment, "byte \(value) inserted at \(position)"))
                guard value != clean[position] else { continue }
                changed[position] = UInt8(value)
                tally.count(try Self.expectRefusedOrCanonical(changed, segment: segment, "byte \(position) changed to \(value)"))
            }
        }
        for length in 0..<clean.count {
            #expect(!(try Self.expectRefusedOrCanonical(Array(clean.prefix(length)), segment: segment, "cut to \(length) bytes")))
        }
        // Both outcomes in quantity, or the property says little.
        #expect(tally.accepted > 500, "too few damaged bodies were still written bodies")
        #expect(tally.refused > tally.total * 9 / 10, "too few damaged bodies were refused")
    }

    /// A small written body of up to three entries, a segment or a snapshot.
    static func smallBody(segment: Bool, _ random: inout Seeded) throws -> [UInt8] {
        let entries = Int.random(in: 0...3, using: &random)
        return segment
            ? Array(try BodyCodec.encode(BodyGenerator.segment(&random, entries: entries)))
            : Array(try BodyCodec.encode(BodyGenerator.snapshot(&random, entries: entries)))
    }

    /// Seeded damage to generated bodies: several bytes at once, and structural changes (keys
    /// added, dropped, repeated or renamed, values of another kind, junk, deep nesting).
    @Test func seededDamageIsRefusedOrIsAnotherWrittenBody() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0004))
        var tally = Tally()
        for round in 0..<Self.count(250) {
            let isSegment = round % 2 == 0
            let clean = try Self.smallBody(segment: isSegment, &random)
            let tree = try JSONTree(parsing: clean)
            for _ in 0..<6 {
                let bytes = ByteMutator.mutate(clean, random: &random)
                tally.count(try Self.expectRefusedOrCanonical(bytes, segment: isSegment, "damaged body \(round) \(Self.seedLabel(0x5EED_0004))"))
            }
            for _ in 0..<6 {
                let bytes = Renderer.render(TreeMutator.mutate(tree, random: &random), style: RenderStyle(), random: &random)
                tally.count(try Self.expectRefusedOrCanonical(bytes, segment: isSegment, "mutated body \(round) \(Self.seedLabel(0x5EED_0004))"))
            }
        }
        #expect(tally.accepted > tally.total / 50, "too few damaged bodies were still written bodies")
        #expect(tally.refused > tally.total / 2, "too few damaged bodies were refused")
    }

    // MARK: Other spellings

    /// The same values spelled another way are refused, each with a reason that says what is wrong.
    @Test func respelledBodiesAreRefusedWithAReason() throws {
        let body = Self.gameSegmentText
        func with(_ old: String, _ new: String) -> String {
            precondition(body.contains(old), "\(old) is not in the body")
            return body.replacingOccurrences(of: old, with: new)
        }
        let cases: [(String, String, String)] = [
            ("whitespace before", " " + body, "whitespace"),
            ("whitespace after", body + "\n", "whitespace"),
            ("a space after a colon", with(#""seq":17,"zone""#, #""seq": 17,"zone""#), "whitespace"),
            ("a newline between entries", with("},{", "},\n{"), "whitespace"),
            ("keys in another order", with(#""name":"game-1","seq":17"#, #""seq":17,"name":"game-1""#), "order"),
            ("the body's keys in another order", with(#","generation":"g0","hlc""#, #","zone":"Games","generation":"g0","hlc""#), "order"),
            ("a repeated key", with(#""seq":17,"zone":"Games"}"#, #""seq":17,"zone":"Games","zone":"Games"}"#), "repeated key"),
            ("a repeated key inside", with(#""name":"game-1","seq":17"#, #""name":"game-1","name":"game-1","seq":17"#), "repeated key"),
            ("an unknown key", with(#""seq":17,"zone""#, #""seq":17,"x":1,"zone""#), "unknown key"),
            ("an unknown key at the end", with(#""zone":"Games"}"#, #""zone":"Games","zzz":1}"#), "unknown key"),
            ("a missing key", with(#","zone":"Games"}"#, "}"), "missing"),
            ("fields null", with(#""deleted":true,"hlc""#, #""deleted":true,"fields":null,"hlc""#), "null"),
            ("a trailing comma in an object", with(#""zone":"Games"}"#, #""zone":"Games",}"#), "trailing comma"),
            ("a trailing comma in the entries", with(#""type":"Game"}],"#, #""type":"Game"},],"#), "trailing comma"),
            ("a trailing comma in the fields", with(#"{"string":"crane"}}"#, #"{"string":"crane"},}"#), "trailing comma"),
            ("a trailing comma in a list", with(#"["c","r"]"#, #"["c","r",]"#), "trailing comma"),
            ("4.0 for an integer", with(#"{"int":4}"#, #"{"int":4.0}"#), "plain digits"),
            ("4e0 for an integer", with(#"{"int":4}"#, #"{"int":4e0}"#), "plain digits"),
            ("a leading zero", with(#""seq":17,"zone""#, #""seq":017,"zone""#), "plain digits"),
            ("a plus sign", with(#""seq":17,"zone""#, #""seq":+17,"zone""#), "plain digits"),
            ("-0 for zero", with(#""counter":0"#, #""counter":-0"#), "plain digits"),
            ("0.50 for 0.5", with(#"{"double":0.5}"#, #"{"double":0.50}"#), "spells it \"0.5\""),
            ("5e-1 for 0.5", with(#"{"double":0.5}"#, #"{"double":5e-1}"#), "spells it \"0.5\""),
            ("a date as 1.7e12", with(#"{"date":1700000123456}"#, #"{"date":1.700000123456e12}"#), "plain digits"),
            ("an escaped letter", with(#""game-1""#, #""g\u0061me-1""#), "escape the writer never writes"),
            ("an escaped é", with(#""crane""#, #""cran\u00e9""#), "escape the writer never writes"),
            ("a newline as \\u000a", with(#""game-1""#, #""game\u000a1""#), "escape the writer never writes"),
            ("an escape in upper case", with(#""game-1""#, #""game\u001F1""#), "escape the writer never writes"),
            ("an emoji as a surrogate pair", with(#""crane""#, #""\ud83d\ude00""#), "escape the writer never writes"),
            ("an unknown escape", with(#""game-1""#, #""game\x1""#), "escape the writer never writes"),
            ("a raw slash", with(#"\/"#, "/"), "'/'"),
            ("a raw control character", with(#""game-1""#, "\"game\u{1}1\""), "raw control character"),
            ("a raw tab", with(#""game-1""#, "\"game\t1\""), "raw control character"),
            ("an escaped key", with(#""seq":17,"zone""#, #""s\u0065q":17,"zone""#), "escape in the key"),
            ("base64 without padding", with(#""AAH+\/w==""#, #""AAH+\/w""#), "base64"),
            ("base64 with other trailing bits", with(#""AAH+\/w==""#, #""AAH+\/x==""#), "base64"),
            ("fields out of order", with(#""guesses":{"int":4},"letters""#, #""letters":{"strings":["c","r"]},"guesses":{"int":4},"letters""#), "order"),
            ("a field twice", with(#""guesses":{"int":4},"#, #""guesses":{"int":4},"guesses":{"int":4},"#), "repeated"),
            ("two type keys", with(#"{"int":4}"#, #"{"int":4,"bool":true}"#), "exactly one type key"),
            ("an unknown type key", with(#"{"int":4}"#, #"{"integer":4}"#), "unknown field type"),
            ("no type key", with(#"{"int":4}"#, "{}"), "without a type key"),
            ("a byte order mark", "\u{FEFF}" + body, "byte order mark"),
            ("bytes after the body", body + "x", "after the body"),
            ("a second body", body + body, "after the body"),
            ("an array body", "[" + body + "]", "expected a segment"),
            ("nothing", "", "empty"),
            ("an invalid device", with(#""createdBy":"laptop""#, #""createdBy":"..\/laptop""#), "not a valid DeviceID"),
            ("an invalid generation", with(#""generation":"g0""#, #""generation":"x0""#), "not a valid CloudGeneration"),
            ("Int64 overflow", with(#""millis":1765000000000}"#, #""millis":9223372036854775808}"#), "out of range"),
            ("UInt32 overflow", with(#""counter":0"#, #""counter":4294967296"#), "out of range"),
            ("a negative counter", with(#""counter":1,"#, #""counter":-1,"#), "out of range"),
            ("a double out of range", with(#"{"double":0.5}"#, #"{"double":1e400}"#), "out of range"),
            ("a double underflowing to zero", with(#"{"double":0.5}"#, #"{"double":1e-400}"#), "spells it \"0\""),
            ("a string where a number belongs", with(#""seq":17,"zone""#, #""seq":"17","zone""#), "expected an integer"),
            ("True for true", with(#"{"bool":true}"#, #"{"bool":True}"#), "true or false"),
        ]
        for (what, text, reason) in cases {
            let refusal = Self.refusal(Array(text.utf8), segment: true)
            #expect(refusal != nil, "\(what) was accepted")
            #expect(refusal?.reason.contains(reason) == true, "\(what): \(refusal?.description ?? "accepted"), not about \(reason)")
        }

        // UTF-16 and UTF-32, either way round, with or without a byte order mark.
        for (what, encoding) in [("UTF-16LE", String.Encoding.utf16LittleEndian), ("UTF-16BE", .utf16BigEndian), ("UTF-16", .utf16),
                                 ("UTF-32LE", .utf32LittleEndian), ("UTF-32BE", .utf32BigEndian)] {
            let bytes = try #require(body.data(using: encoding))
            #expect(Self.refusal(Array(bytes), segment: true)?.reason.contains("UTF-16 or UTF-32") == true, "\(what)")
        }

        // Invalid UTF-8 in a string.
        let badName = with("game-1", "game-\u{1}").utf8.map { $0 == 1 ? 0xFF : $0 }
        #expect(Self.refusal(badName, segment: true)?.reason.contains("invalid UTF-8") == true)
        let encodedSurrogate = with("game-1", "game-\u{1}").utf8.flatMap { $0 == 1 ? [0xED, 0xA0, 0x80] : [$0] }
        #expect(Self.refusal(encodedSurrogate, segment: true)?.reason.contains("invalid UTF-8") == true)
    }

    /// A field name is a Swift string: "é" and "e" + U+0301 are one name, so a record holding both
    /// is no record the writer wrote, whichever order they come in; either alone reads as written.
    @Test func canonicallyEquivalentFieldNamesAreOneName() throws {
        let body = Self.gameSegmentText
        for fields in [#"{"e\#u{301}":{"int":1},"é":{"int":2}}"#, #"{"K":{"int":1},"\#u{212A}":{"int":2}}"#] {
            let text = body.replacingOccurrences(of: Self.gameFieldsText, with: fields)
            let refusal = Self.refusal(Array(text.utf8), segment: true)
            #expect(refusal?.reason.contains("repeated") == true, "\(refusal?.description ?? "accepted")")
        }
        for name in ["e\u{301}", "é", "\u{212A}"] {
            var segment = Self.gameSegment
            segment.entries[0].fields = [name: .int(1)]
            let bytes = try BodyCodec.encode(segment)
            let read = try BodyCodec.decodeSegment(bytes)
            #expect(read == segment)
            #expect(try BodyCodec.encode(read) == bytes, "\(name.unicodeScalars.map(\.value)) is not written back as it was")
        }
    }

    /// Generated bodies spelled another way: whitespace, keys in another order, escapes the writer
    /// never uses, other spellings of the same numbers, trailing commas. Whatever differs from the
    /// writer's bytes is refused with a reason.
    @Test func seededRespellingsAreRefused() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0005))
        var respelled = 0
        for round in 0..<Self.count(250) {
            let isSegment = round % 2 == 0
            let clean = try Self.smallBody(segment: isSegment, &random)
            let tree = try JSONTree(parsing: clean)
            // The renderer's plain style is the writer's: the test's own check.
            #expect(Renderer.render(tree, style: RenderStyle(), random: &random) == clean, "body \(round) is not rendered as written")
            for _ in 0..<4 {
                let bytes = Renderer.render(tree, style: .random(&random), random: &random)
                let refusal = Self.refusal(bytes, segment: isSegment)
                if bytes == clean {
                    #expect(refusal == nil, "body \(round), spelled as written, was refused: \(refusal?.description ?? "")")
                } else {
                    respelled += 1
                    #expect(refusal != nil, "respelled body \(round) was accepted \(Self.seedLabel(0x5EED_0005)): \(Self.show(bytes))")
                }
            }
        }
        #expect(respelled > Self.count(250) * 2, "too few bodies were respelled")
    }

    // MARK: Numbers and strings

    /// Numbers where they are read: doubles on rounding edges, integers on the edges of Int64 and
    /// UInt32, fractions, exponents and malformed tokens. Each is refused, or written back as read.
    @Test func numbersAreReadOnlyInTheWritersSpelling() throws {
        var random = Seeded(seed: Self.seed(0x5EED_0006))
        var tokens = [
            "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623157e+308",
            "1.7976931348623159e308", "5e-324", "4.9406564584124654e-324", "2.4703282292062327e-324", "9007199254740993",
            "0.1e1", "100000000000000000000000e-23", "1" + String(repeating: "0", count: 400) + "e-400",
            "0." + String(repeating: "0", count: 330) + "1", "-0", "-0.0", "0", "0e0", "0E-0", "0e8", "0E8", "0.000E1",
            "0E-8", "-0E1", "0e400", "0.0E5", "0E00", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
            "-9223372036854775809", "18446744073709551616", "4294967295", "4294967296", "-4294967295", "1e18", "1e+18",
            "1e19", "9.223372036854775807e18", "12345678901234567890123", "1e-07", "1e-7", "0.3333333333333333", "100",
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
        // The writer's own spelling of random doubles: every one reads back, bit for bit.
        for _ in 0..<Self.count(1_500) {
            var value: Double
            repeat { value = Double(bitPattern: random.next()) } while !value.isFinite
            let token = BodyWriter.spelling(value)
            tokens.append(token)
            let text = Self.gameSegmentText.replacingOccurrences(of: Self.gameFieldsText, with: #"{"a":{"double":\#(token)}}"#)
            let read = try BodyCodec.decodeSegment(Data(text.utf8)).entries[0].fields?["a"]
            guard case .double(let number) = read else {
                Issue.record("\(token) did not read as a double")
                continue
            }
            #expect(number.bitPattern == value.bitPattern, "\(token)")
        }
        var tally = Tally()
        for token in tokens {
            for kind in ["double", "int", "date"] {
                let text = Self.gameSegmentText.replacingOccurrences(of: Self.gameFieldsText, with: #"{"a":{"\#(kind)":\#(token)}}"#)
                tally.count(try Self.expectRefusedOrCanonical(Array(text.utf8), segment: true, "\(token) as \(kind)"))
            }
            for (old, new) in [(#""seq":17,"zone""#, #""seq":\#(token),"zone""#), (#""counter":3,"millis":1765000000000},"seq":17,"zone""#,
                                                                                  #""counter":\#(token),"millis":1765000000000},"seq":17,"zone""#)] {
                let text = Self.gameSegmentText.replacingOccurrences(of: old, with: new)
                tally.count(try Self.expectRefusedOrCanonical(Array(text.utf8), segment: true, "\(token) as \(old.prefix(8))"))
            }
        }
        #expect(tally.accepted > tally.total / 10)
        #expect(tally.refused > tally.total / 2)

        // The edges, one by one.
        func field(_ kind: String, _ token: String) -> [UInt8] {
            Array(Self.gameSegmentText.replacingOccurrences(of: Self.gameFieldsText, with: #"{"a":{"\#(kind)":\#(token)}}"#).utf8)
        }
        for token in ["9223372036854775807", "-9223372036854775808", "0", "-1"] { #expect(Self.refusal(field("int", token), segment: true) == nil, "\(token)") }
        for token in ["9223372036854775808", "-9223372036854775809", "-0", "1.0"] { #expect(Self.refusal(field("int", token), segment: true) != nil, "\(token)") }
        for token in ["0", "-0", "0.5", "1e+16", "1e-07", "5e-324", "1.7976931348623157e+308", "-2.5", "100"] {
            #expect(Self.refusal(field("double", token), segment: true) == nil, "\(token)")
        }
        for token in ["0.0", "1e16", "1e-7", "1E+16", "100.0", "1.7976931348623157e308", "0e8", "0E-8", "1e400", "1e-400"] {
            #expect(Self.refusal(field("double", token), segment: true) != nil, "\(token)")
        }
        // Dates: whole milliseconds a Date keeps, about ±70,000 years (2^51 ms) either side of 1970.
        for token in ["0", "-1", "1700000123456", "2251799813685247", "-2251799813685247"] {
            #expect(Self.refusal(field("date", token), segment: true) == nil, "\(token)")
        }
        #expect(Self.refusal(field("date", "9223372036854775807"), segment: true)?.reason.contains("would not be written back") == true)
    }

    /// `\uXXXX` is written for exactly the control characters without a short escape, in lower-case
    /// hex; every other `\uXXXX` is refused. A byte alone in a string is read when the writer writes
    /// it as itself.
    @Test func stringsAreReadOnlyInTheWritersSpelling() throws {
        let template = #"{"device":"A","entries":[{"createdAt":{"counter":0,"millis":0},"createdBy":"A","deleted":false,"fields":{"a":{"int":1}},"hlc":{"counter":0,"millis":0},"name":"NAME","seq":1,"type":"T"}],"generation":"g0","hlc":{"counter":0,"millis":0},"seq":1,"zone":"Z"}"#
        func named(_ name: [UInt8]) -> [UInt8] {
            let parts = template.components(separatedBy: "NAME")
            return Array(parts[0].utf8) + name + Array(parts[1].utf8)
        }
        var accepted = 0
        for unit in 0...0xFFFF {
            for hex in Set([String(format: "%04x", unit), String(format: "%04X", unit)]) {
                let bytes = named(Array("a\\u\(hex)b".utf8))
                let writes = unit < 0x20 && ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(unit) && hex == hex.lowercased()
                let refusal = Self.refusal(bytes, segment: true)
                #expect((refusal == nil) == writes, "\\u\(hex): \(refusal?.description ?? "accepted")")
                if writes, refusal == nil {
                    accepted += 1
                    #expect(try BodyCodec.decodeSegment(Data(bytes)).entries[0].name == "a" + String(UnicodeScalar(UInt8(unit))) + "b")
                }
            }
        }
        #expect(accepted == 27)
        for byte in 0...255 {
            let writes = byte >= 0x20 && byte < 0x80 && byte != 0x22 && byte != 0x5C && byte != 0x2F
            let refusal = Self.refusal(named([UInt8(ascii: "a"), UInt8(byte), UInt8(ascii: "z")]), segment: true)
            #expect((refusal == nil) == writes, "byte \(byte): \(refusal?.description ?? "accepted")")
        }
        for (escape, character) in [(#"\""#, "\""), (#"\\"#, "\\"), (#"\/"#, "/"), (#"\b"#, "\u{8}"), (#"\f"#, "\u{C}"), (#"\n"#, "\n"), (#"\r"#, "\r"), (#"\t"#, "\t")] {
            #expect(try BodyCodec.decodeSegment(Data(named(Array(escape.utf8)))).entries[0].name == character)
        }
        // The list limit.
        func list(_ count: Int) -> [UInt8] {
            let strings = "{\"a\":{\"strings\":[" + Array(repeating: #""a""#, count: count).joined(separator: ",") + "]}}"
            return Array(template.replacingOccurrences(of: #"{"a":{"int":1}}"#, with: strings).utf8)
        }
        #expect(Self.refusal(list(CloudLimits.maxListItems), segment: true) == nil, "a full list")
        #expect(Self.refusal(list(CloudLimits.maxListItems + 1), segment: true)?.reason.contains("more than") == true, "a list too long")
    }

    // MARK: Hostile bodies

    /// Nesting and noise are refused at the first byte out of place. The reader never recurses, so
    /// it runs on a 64 KiB stack.
    @Test func hostileBodiesAreRefusedWithoutDeepRecursion() throws {
        let deep = Array((#"{"device":"# + String(repeating: "[{\"a\":", count: 200_000)).utf8)
        let deepField = Array(Self.gameSegmentText.replacingOccurrences(
            of: Self.gameFieldsText, with: #"{"a":{"strings":"# + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}}").utf8)
        let brackets = Array(repeating: UInt8(ascii: "["), count: 1 << 20)
        let refusals = onSmallStack {
            [Self.refusal(deep, segment: true), Self.refusal(deepField, segment: true), Self.refusal(brackets, segment: false)]
        }
        #expect(refusals[0]?.description == "expected a string, found '[' at byte 10")
        #expect(refusals[1]?.reason.contains("expected a string, found '['") == true)
        #expect(refusals[2]?.description == "expected a snapshot (an object), found '[' at byte 0")

        var random = Seeded(seed: Self.seed(0x5EED_0007))
        var refused = 0
        for round in 0..<300 {
            let count = Int.random(in: 1...200, using: &random)
            let alphabet = Array(#"{}[]":,-0123456789.eE+ truefalsn\u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
            if Self.refusal(bytes, segment: round % 2 == 0) != nil { refused += 1 }
        }
        #expect(refused == 300, "random noise was accepted")
    }

    /// Runs `body` on a thread with a 64 KiB stack.
    private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.stackSize = 64 << 10
        thread.start()
        done.wait()
        return result!
    }

    // MARK: Support

    /// A commit as the game writes one, with every kind of field, and a deletion.
    static let gameSegment: SegmentBody = {
        let stamp = HLCTimestamp(millis: 1_765_000_000_000, counter: 3)
        let device = DeviceID(validated: "mac-studio")
        return SegmentBody(generation: .initial, device: device, zone: ZoneID(validated: "Games"), seq: 17, hlc: stamp, entries: [
            RecordEntry(name: "game-1", type: "Game", seq: 17, hlc: stamp, deleted: false, fields: [
                "word": .string("crane"), "guesses": .int(4), "won": .bool(true), "finishedAt": .date(Date(timeIntervalSince1970: 1_700_000_123.456)),
                "ratio": .double(0.5), "notes": .bytes(Data([0, 1, 254, 255])), "letters": .strings(["c", "r"]),
            ], createdBy: device, createdAt: HLCTimestamp(millis: 1_764_999_999_000, counter: 0)),
            RecordEntry(name: "game-2", type: "Game", seq: 17, hlc: stamp, deleted: true, fields: nil,
                        createdBy: DeviceID(validated: "laptop"), createdAt: HLCTimestamp(millis: 1_764_999_999_000, counter: 1)),
        ])
    }()

    static let gameFieldsText = #"{"finishedAt":{"date":1700000123456},"guesses":{"int":4},"letters":{"strings":["c","r"]},"notes":{"bytes":"AAH+\/w=="},"ratio":{"double":0.5},"won":{"bool":true},"word":{"string":"crane"}}"#

    static let gameSegmentText = #"{"device":"mac-studio","entries":[{"createdAt":{"counter":0,"millis":1764999999000},"createdBy":"mac-studio","deleted":false,"fields":"#
        + gameFieldsText
        + #","hlc":{"counter":3,"millis":1765000000000},"name":"game-1","seq":17,"type":"Game"},{"createdAt":{"counter":1,"millis":1764999999000},"createdBy":"laptop","deleted":true,"hlc":{"counter":3,"millis":1765000000000},"name":"game-2","seq":17,"type":"Game"}],"generation":"g0","hlc":{"counter":3,"millis":1765000000000},"seq":17,"zone":"Games"}"#

    /// A snapshot of edge values: every escape, characters written as themselves, field names
    /// whose byte order is not their alphabetical one, the ends of every number type, doubles in
    /// every shape of their spelling, empty fields, lists and bytes.
    static let edgeSnapshot: SnapshotBody = {
        let device = DeviceID(validated: "Dev_1-x")
        return SnapshotBody(generation: CloudGeneration(validated: "g170000000000000000-B"), device: device, zone: ZoneID(validated: "ReadingList"),
                            base: 40, entries: [
            RecordEntry(name: "a\"b\\c/d\u{8}\u{9}\u{A}\u{C}\u{D}\u{0}\u{1F}\u{7F}é😀\u{2028}", type: "Edge", seq: -1,
                        hlc: HLCTimestamp(millis: .min, counter: .max), deleted: false, fields: [
                "😀": .double(-0.0), "é": .double(100), "a9": .double(1e16), "a10": .double(.leastNonzeroMagnitude), "Z": .double(1e-7),
                "B": .double(.greatestFiniteMagnitude), "\u{212A}": .double(1.0 / 3), "b": .int(.min), "c": .int(.max),
                "d": .date(Date(timeIntervalSince1970: -1.5)), "e": .strings([]), "f": .bytes(Data()), "g": .strings(["", "/"]),
            ], createdBy: device, createdAt: HLCTimestamp(millis: .max, counter: 0)),
            RecordEntry(name: "empty", type: "Edge", seq: 40, hlc: .zero, deleted: true, fields: [:], createdBy: device, createdAt: .zero),
        ])
    }()

    static let edgeSnapshotText = #"{"base":40,"device":"Dev_1-x","entries":[{"createdAt":{"counter":0,"millis":9223372036854775807},"createdBy":"Dev_1-x","deleted":false,"fields":{"B":{"double":1.7976931348623157e+308},"Z":{"double":1e-07},"a10":{"double":5e-324},"a9":{"double":1e+16},"b":{"int":-9223372036854775808},"c":{"int":9223372036854775807},"d":{"date":-1500},"e":{"strings":[]},"f":{"bytes":""},"g":{"strings":["","\/"]},"é":{"double":100},"\#u{212A}":{"double":0.3333333333333333},"😀":{"double":-0}},"hlc":{"counter":4294967295,"millis":-9223372036854775808},"name":"a\"b\\c\/d\b\t\n\f\r\u0000\u001f\#u{7F}é😀\#u{2028}","seq":-1,"type":"Edge"},{"createdAt":{"counter":0,"millis":0},"createdBy":"Dev_1-x","deleted":true,"fields":{},"hlc":{"counter":0,"millis":0},"name":"empty","seq":40,"type":"Edge"}],"generation":"g170000000000000000-B","zone":"ReadingList"}"#

    static let smallSegmentText = #"{"device":"A","entries":[{"createdAt":{"counter":0,"millis":1700000000000},"createdBy":"A","deleted":false,"fields":{"b":{"bytes":"AAH+\/w=="},"d":{"date":1700000123456},"f":{"double":0.5},"i":{"int":-4},"l":{"strings":["c","r"]},"o":{"bool":true},"s":{"string":"crane"}},"hlc":{"counter":2,"millis":1700000000000},"name":"game-1","seq":3,"type":"Game"}],"generation":"g0","hlc":{"counter":2,"millis":1700000000000},"seq":3,"zone":"Games"}"#

    static let smallSnapshotText = #"{"base":2,"device":"A","entries":[{"createdAt":{"counter":0,"millis":1700000000000},"createdBy":"A","deleted":true,"hlc":{"counter":1,"millis":1700000000000},"name":"\"\\\/\b\t\u001fé😀","seq":2,"type":"Game"}],"generation":"g0","zone":"Games"}"#

    static func show(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix(600), as: UTF8.self).debugDescription
    }

    /// Why the codec refuses `bytes` as a segment (or a snapshot), or nil if it reads them.
    static func refusal(_ bytes: [UInt8], segment: Bool) -> BodyCodec.Unreadable? {
        do {
            if segment {
                _ = try BodyCodec.decodeSegment(Data(bytes))
            } else {
                _ = try BodyCodec.decodeSnapshot(Data(bytes))
            }
            return nil
        } catch let unreadable as BodyCodec.Unreadable {
            return unreadable
        } catch {
            Issue.record("\(error) is not an Unreadable")
            return BodyCodec.Unreadable(reason: "\(error)", offset: 0)
        }
    }

    /// The contract for any bytes at all: refused with a reason and an offset within them, or read
    /// as a body the writer writes as exactly these bytes. A snapshot read entry by entry has the
    /// same answer. Returns whether they were read.
    @discardableResult
    static func expectRefusedOrCanonical(_ bytes: [UInt8], segment: Bool, _ what: @autoclosure () -> String,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let data = Data(bytes)
        if !segment {
            var entries: [RecordEntry] = []
            let streamed = Result { try BodyCodec.decodeSnapshot(data) { entries.append($0) } }
            let whole = Result { try BodyCodec.decodeSnapshot(data) }
            switch (streamed, whole) {
            case let (.success(rest), .success(body)):
                #expect(rest.entries.isEmpty && entries == body.entries, "\(what()): read otherwise entry by entry", sourceLocation: sourceLocation)
            case let (.failure(one), .failure(other)):
                #expect("\(one)" == "\(other)", "\(what()): refused otherwise entry by entry", sourceLocation: sourceLocation)
            default:
                Issue.record("\(what()): read entry by entry \(streamed), whole \(whole)", sourceLocation: sourceLocation)
            }
        }
        do {
            let written = segment ? try BodyCodec.encode(BodyCodec.decodeSegment(data)) : try BodyCodec.encode(BodyCodec.decodeSnapshot(data))
            if written != data {
                Issue.record("\(what()): read, but the writer writes it as \(show(Array(written))), not \(show(bytes))", sourceLocation: sourceLocation)
            }
            return true
        } catch let refusal as BodyCodec.Unreadable {
            if refusal.reason.isEmpty || refusal.reason.contains("\n") || !(0...bytes.count).contains(refusal.offset) {
                Issue.record("\(what()): a bad refusal \(refusal.description.debugDescription) for \(show(bytes))", sourceLocation: sourceLocation)
            }
            return false
        }
    }

    struct Tally {
        var accepted = 0, refused = 0
        var total: Int { accepted + refused }
        mutating func count(_ wasAccepted: Bool) {
            if wasAccepted { accepted += 1 } else { refused += 1 }
        }
    }
}

// The generator, re-speller and mutators, nested so their names stay out of the module's way.
extension BodyCodecTests {
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

    /// A body as JSON values, so it can be written with other spellings than the writer's.
    indirect enum JSONTree {
        case object([(key: String, value: JSONTree)])
        case array([JSONTree])
        case string(String)
        /// A number's text, as the writer writes it.
        case number(String)
        /// Written as is: literals, and junk.
        case raw([UInt8])

        static let null = JSONTree.raw(Array("null".utf8))

        /// The tree of a body in the writer's form, keys in the order written.
        init(parsing bytes: [UInt8]) throws {
            var index = 0
            self = try Self.parse(bytes, &index)
            guard index == bytes.count else { throw CocoaError(.coderReadCorrupt) }
        }

        private static func parse(_ bytes: [UInt8], _ index: inout Int) throws -> JSONTree {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var pairs: [(key: String, value: JSONTree)] = []
                while bytes[index] != UInt8(ascii: "}") {
                    if !pairs.isEmpty { index += 1 }  // ","
                    guard case .string(let key) = try parse(bytes, &index) else { throw CocoaError(.coderReadCorrupt) }
                    index += 1  // ":"
                    pairs.append((key, try parse(bytes, &index)))
                }
                index += 1
                return .object(pairs)
            case UInt8(ascii: "["):
                index += 1
                var elements: [JSONTree] = []
                while bytes[index] != UInt8(ascii: "]") {
                    if !elements.isEmpty { index += 1 }
                    elements.append(try parse(bytes, &index))
                }
                index += 1
                return .array(elements)
            case UInt8(ascii: "\""):
                // The writer's escapes only.
                var text: [UInt8] = []
                index += 1
                while bytes[index] != UInt8(ascii: "\"") {
                    guard bytes[index] == UInt8(ascii: "\\") else {
                        text.append(bytes[index])
                        index += 1
                        continue
                    }
                    let escaped = bytes[index + 1]
                    switch escaped {
                    case UInt8(ascii: "b"): text.append(0x08)
                    case UInt8(ascii: "f"): text.append(0x0C)
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "r"): text.append(0x0D)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        text.append(UInt8(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16)!)
                        index += 4
                    default: text.append(escaped)
                    }
                    index += 2
                }
                index += 1
                return .string(String(decoding: text, as: UTF8.self))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let start = index
                while index < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[index]) { index += 1 }
                return .raw(Array(bytes[start..<index]))
            default:
                let start = index
                while index < bytes.count, Array("0123456789+-.eE".utf8).contains(bytes[index]) { index += 1 }
                return .number(String(decoding: bytes[start..<index], as: UTF8.self))
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

    /// Writes a tree; with the plain style, exactly as the writer would.
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

        /// Other spellings of the same number: JSON accepts them all, the writer writes none.
        private static func respell(_ text: String, _ random: inout Seeded) -> String {
            guard Int.random(in: 0..<4, using: &random) == 0 else { return text }
            let isInteger = !text.contains(where: { ".eE".contains($0) })
            let digits = text.hasPrefix("-") ? String(text.dropFirst()) : text
            let sign = text.hasPrefix("-") ? "-" : ""
            var forms = ["\(text)e0", "\(text)E+0", "\(sign)0\(digits)", "\(text)0e-1"]
            if isInteger { forms += ["\(text).0", "\(text).000", "\(text)00e-2", "\(sign)0.\(digits)e\(digits.count)"] }
            if !text.hasPrefix("-") { forms.append("+\(text)") }
            return forms.randomElement(using: &random)!
        }

        /// The writer's escapes in the plain style; with `escapeProbability`, any character now and
        /// then as `\uXXXX` in either case (or `/` as `\u002f`).
        private static func string(_ text: String, into out: inout [UInt8], _ style: RenderStyle, _ random: inout Seeded) {
            out.append(UInt8(ascii: "\""))
            for scalar in text.unicodeScalars {
                if Double.random(in: 0..<1, using: &random) < style.escapeProbability {
                    out.append(contentsOf: unicodeEscape(scalar, &random))
                    continue
                }
                switch scalar {
                case "\"": out.append(contentsOf: Array(#"\""#.utf8))
                case "\\": out.append(contentsOf: Array(#"\\"#.utf8))
                case "/": out.append(contentsOf: Array(#"\/"#.utf8))
                case "\u{8}": out.append(contentsOf: Array(#"\b"#.utf8))
                case "\u{C}": out.append(contentsOf: Array(#"\f"#.utf8))
                case "\n": out.append(contentsOf: Array(#"\n"#.utf8))
                case "\r": out.append(contentsOf: Array(#"\r"#.utf8))
                case "\t": out.append(contentsOf: Array(#"\t"#.utf8))
                case _ where scalar.value < 0x20: out.append(contentsOf: Array(String(format: "\\u%04x", scalar.value).utf8))
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
        static func mutate(_ tree: JSONTree, random: inout Seeded) -> JSONTree {
            var budget = Int.random(in: 1...3, using: &random)
            var result = tree
            // Walk until the budget is spent; each pass visits every node with a small chance.
            for _ in 0..<8 where budget > 0 {
                result = visit(result, depth: 1, budget: &budget, &random)
            }
            return result
        }

        /// `depth`: how deeply the JSON nests at `tree`'s brackets.
        private static func visit(_ tree: JSONTree, depth: Int, budget: inout Int, _ random: inout Seeded) -> JSONTree {
            guard budget > 0 else { return tree }
            if Int.random(in: 0..<12, using: &random) == 0 {
                budget -= 1
                return change(tree, depth: depth, &random)
            }
            switch tree {
            case .object(let pairs):
                return .object(pairs.map { ($0.key, visit($0.value, depth: depth + 1, budget: &budget, &random)) })
            case .array(let elements):
                return .array(elements.map { visit($0, depth: depth + 1, budget: &budget, &random) })
            default:
                return tree
            }
        }

        private static func change(_ tree: JSONTree, depth: Int, _ random: inout Seeded) -> JSONTree {
            switch tree {
            case .object(var pairs):
                switch Int.random(in: 0..<7, using: &random) {
                case 0: pairs.insert((BodyGenerator.string(&random, pieces: 1...2), junk(depth: depth, &random)), at: Int.random(in: 0...pairs.count, using: &random))
                case 1 where !pairs.isEmpty:  // the same key again, before or after, with the same value or another
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

        /// A value of any kind, valid or not: deep nesting, junk, invalid UTF-8, names a folder
        /// would refuse, numbers on the edge of their types.
        static func junk(depth: Int, _ random: inout Seeded) -> JSONTree {
            let raw: [String] = [
                "01", "-", "1-2+3eE", "1.5", "3.0", "1e3", "-0", "4294967295", "4294967296", "-1", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e400", "1e-400", "5e-324", "0.1e1",
                "true", "false", "null", "nul", "tru", "[1,]", "[,]", "{\"a\":1,}", "{,}", "{\"a\"}", "[]", "{}", "\"\\x\"",
                "\"\\u12zz\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"", "\"\u{1}\"", "\"a/b\"", "\"a\\/b\"", "\"..\\/x\"", "\"g1\"", "\"gx\"", "\"\"",
                "{\"int\":1}", "{\"int\":1.0}", "{\"string\":\"x\",\"int\":1}", "{\"strings\":[\"a\",null]}", "{\"bytes\":\"AAH+\\/w==\"}",
                "{\"date\":-1}", "{\"double\":-0}", "{\"counter\":2,\"millis\":1}", "{\"counter\":2}",
            ]
            switch Int.random(in: 0..<10, using: &random) {
            case 0:  // deep nesting, counted from here
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
