import Foundation

/// Hand-written JSON for the two big cloud file bodies, segments and snapshots.
///
/// Reading a device's whole history means decoding every segment and snapshot it wrote, so these
/// two bodies have a codec of their own instead of `Codable`. Nobody but this store writes them,
/// and its contract says so: **it reads exactly what its writer writes, and refuses everything
/// else** with an `Unreadable` that says what was wrong and at which byte. It never crashes on a
/// body, and never recurses: reading follows the fixed shape below, so an unexpected byte (deep
/// nesting included) is refused where it stands.
///
/// **What the writer writes**, and so what is read. Every segment and snapshot body a release has
/// put in a cloud folder has the one form below. Format version 1 bodies (plain JSON, written by
/// the releases before compressed files) came from `JSONEncoder` with `.sortedKeys`, on the Swift 6
/// toolchains every release was built with; version 2 bodies (compressed) come from `BodyWriter`
/// below, which was made to write those same bytes and was tested against that `JSONEncoder`
/// until this contract replaced that one. The frozen files of both eras (the CloudStoreTests
/// fixtures `cloud` and `cloud-v2`, and the cloud folder saved from the release before issue 12 in
/// the EndToEndTests fixtures) decode here and are written again byte for byte. The game's records
/// hold strings, integers, booleans and dates under ASCII field names, so the two things a
/// toolchain's `JSONEncoder` might have spelled differently (doubles, the order of non-ASCII keys)
/// never reached a game's folder.
///
/// The form, exactly:
/// - UTF-8 without a byte order mark; no whitespace anywhere; nothing after the closing `}`.
/// - Keys in the writer's order (UTF-8 byte order), each once, none unknown, none missing: a
///   segment `device, entries, generation, hlc, seq, zone`; a snapshot `base, device, entries,
///   generation, zone`; an entry `createdAt, createdBy, deleted, fields, hlc, name, seq, type`,
///   where `fields` is absent when the record has none (never `null`; a deletion usually has
///   none); a clock reading `counter, millis`. A record's field names in strictly increasing
///   UTF-8 byte order, no two equal as Swift strings (`é` and `e` + U+0301 are one name). A field
///   is an object with exactly one type key: `string`, `int`, `double`, `bool`, `date`, `bytes` or
///   `strings`. No trailing commas, no `null`.
/// - Strings: valid UTF-8; `"`, `\` and `/` escaped with a backslash; U+0008, U+0009, U+000A,
///   U+000C and U+000D as `\b \t \n \f \r`, the other characters below U+0020 as `\u00xx` in
///   lower-case hex; every other character as itself (never `\u0041`, `\u00e9`, a surrogate pair,
///   `\u007f`, or a raw `/`).
/// - Integers in plain digits, `0` or `-?[1-9][0-9]*`, within their type: `Int64` for `seq`,
///   `base`, `millis`, `int` and `date`, `UInt32` for `counter` (never `-0`, `03`, `3.0` or `3e0`).
/// - Doubles spelled as the writer spells their value: Swift's shortest round-trip `description`
///   without a trailing `.0` (`0.5`, `100`, `1e+16`, `5e-324`, `-0`), so always finite.
/// - Dates as whole milliseconds since 1970 that the writer writes again for the date they read
///   as: every date within about ±70,000 years of 1970 (2^51 ms); beyond that a `Date` no
///   longer keeps whole milliseconds.
/// - Bytes as `base64EncodedString()` writes them (padded, no line breaks; its `/` escaped as in
///   any string).
/// - Device, zone and generation names that pass the folder allow-list (`FolderNamed.accepts`),
///   and at most `CloudLimits.maxListItems` strings in a `strings` field.
///
/// So a body is accepted exactly when writing what it decodes to gives back the same bytes; the
/// tests hold the codec to that on generated, damaged, cut short and re-spelled bodies.
enum BodyCodec {
    /// Why a body is not a valid segment or snapshot, and where reading stopped.
    struct Unreadable: Error, CustomStringConvertible {
        let reason: String
        let offset: Int
        var description: String { "\(reason) at byte \(offset)" }
    }

    // MARK: Decoding

    static func decodeSegment(_ bytes: UnsafeRawBufferPointer) throws -> SegmentBody {
        var reader = try BodyReader(bytes)
        let body = try reader.segment()
        try reader.finish()
        return body
    }

    static func decodeSnapshot(_ bytes: UnsafeRawBufferPointer) throws -> SnapshotBody {
        var reader = try BodyReader(bytes)
        let body = try reader.snapshot()
        try reader.finish()
        return body
    }

    static func decodeSegment(_ data: Data) throws -> SegmentBody {
        try data.withUnsafeBytes { try decodeSegment($0) }
    }

    static func decodeSnapshot(_ data: Data) throws -> SnapshotBody {
        try data.withUnsafeBytes { try decodeSnapshot($0) }
    }

    /// A snapshot read entry by entry: `each` sees every entry as it is read, in order, and the
    /// body returned has none. The same reader as `decodeSnapshot`, so it accepts and refuses
    /// exactly the same bodies; a refusal can come after some entries were already seen.
    static func decodeSnapshot(_ data: Data, each: (RecordEntry) throws -> Void) throws -> SnapshotBody {
        try data.withUnsafeBytes { bytes in
            var reader = try BodyReader(bytes)
            let body = try reader.snapshot(each: each)
            try reader.finish()
            return body
        }
    }

    // MARK: Encoding

    /// The body's one form (see above). Throws for a non-finite double, which JSON cannot hold.
    static func encode(_ body: SegmentBody) throws -> Data {
        var writer = BodyWriter(capacity: estimatedSize(entries: body.entries.count))
        writer.raw("{\"device\":")
        writer.string(body.device.name)
        writer.raw(",\"entries\":")
        try writer.entries(body.entries)
        writer.raw(",\"generation\":")
        writer.string(body.generation.name)
        writer.raw(",\"hlc\":")
        writer.hlc(body.hlc)
        writer.raw(",\"seq\":")
        writer.integer(Int64(body.seq))
        writer.raw(",\"zone\":")
        writer.string(body.zone.name)
        writer.raw("}")
        return Data(writer.bytes)
    }

    /// The body's one form (see above). Throws for a non-finite double, which JSON cannot hold.
    static func encode(_ body: SnapshotBody) throws -> Data {
        var whole = Data()
        try encodeParts(body, partBytes: .max) { json, _ in whole = json }
        return whole
    }

    /// The snapshot as the bodies of its parts (format version 3): each the snapshot's form
    /// with a run of its entries, in order, closed once it holds `partBytes` or more (so a part
    /// is at most one entry longer than that). Always at least one part. Each is handed to
    /// `each` with its count of entries as soon as it is written, so one part is held at a time.
    static func encodeParts(_ body: SnapshotBody, partBytes: Int, each: (_ json: Data, _ entries: Int) throws -> Void) throws {
        var encoder = PartEncoder(generation: body.generation, device: body.device, zone: body.zone, base: body.base,
                                  partBytes: partBytes, expected: body.entries.count)
        for entry in body.entries {
            if let part = try encoder.add(entry) { try each(part.json, part.entries) }
        }
        let last = encoder.close()
        try each(last.json, last.entries)
    }

    /// A snapshot's parts encoded as its entries come (see `encodeParts`): a first upload writes
    /// a long history straight into parts without ever holding it whole.
    struct PartEncoder {
        let generation: CloudGeneration, device: DeviceID, zone: ZoneID, base: Int, partBytes: Int
        private var writer: BodyWriter?
        private var entries = 0, live = 0
        /// The first name of the open part (nil while it has none).
        private var first: String?
        /// The first name of each part begun (the parts of a snapshot are in name order).
        private(set) var firstNames: [String] = []
        /// Entries still to come, when known: sizes the first buffer.
        private var expected: Int

        init(generation: CloudGeneration, device: DeviceID, zone: ZoneID, base: Int, partBytes: Int, expected: Int = .max) {
            (self.generation, self.device, self.zone, self.base, self.partBytes, self.expected) = (generation, device, zone, base, partBytes, expected)
        }

        /// Adds an entry; the part before it when that one was full (its JSON, entries and
        /// live entries).
        mutating func add(_ entry: RecordEntry) throws -> (json: Data, entries: Int, live: Int, first: String?)? {
            var closed: (json: Data, entries: Int, live: Int, first: String?)?
            if let writer, writer.bytes.count >= partBytes { closed = close() }
            if writer == nil {
                open()
                firstNames.append(entry.name)
                first = entry.name
            } else {
                writer!.byte(Byte.comma)
            }
            try writer!.entry(entry)
            entries += 1
            if !entry.deleted { live += 1 }
            expected = max(0, expected - 1)
            return closed
        }

        /// The open part closed (an empty one when no entry came since the last).
        mutating func close() -> (json: Data, entries: Int, live: Int, first: String?) {
            if writer == nil { open() }
            writer!.byte(Byte.closeBracket)
            writer!.raw(",\"generation\":")
            writer!.string(generation.name)
            writer!.raw(",\"zone\":")
            writer!.string(zone.name)
            writer!.raw("}")
            defer { (writer, entries, live, first) = (nil, 0, 0, nil) }
            return (Data(writer!.bytes), entries, live, first)
        }

        private mutating func open() {
            var started = BodyWriter(capacity: min(partBytes, BodyCodec.estimatedSize(entries: expected)) + 4096)
            started.raw("{\"base\":")
            started.integer(Int64(base))
            started.raw(",\"device\":")
            started.string(device.name)
            started.raw(",\"entries\":")
            started.byte(Byte.openBracket)
            writer = started
        }
    }

    /// A game record takes 300 to 500 bytes; reserving about that avoids most regrowth.
    fileprivate static func estimatedSize(entries count: Int) -> Int { 256 + min(count, 1 << 40) * 448 }
}

// MARK: - Reading

/// The objects of a body with their keys in the writer's order; only consulted to say why a body
/// is refused.
private enum Shape {
    case segment, snapshot, entry, clock

    var keys: [String] {
        switch self {
        case .segment: ["device", "entries", "generation", "hlc", "seq", "zone"]
        case .snapshot: ["base", "device", "entries", "generation", "zone"]
        case .entry: ["createdAt", "createdBy", "deleted", "fields", "hlc", "name", "seq", "type"]
        case .clock: ["counter", "millis"]
        }
    }

    var name: String {
        switch self {
        case .segment: "a segment"
        case .snapshot: "a snapshot"
        case .entry: "a record entry"
        case .clock: "a clock reading"
        }
    }
}

/// The span of a string in the body, between its quotes, checked to be in the writer's spelling
/// except for its UTF-8, which `string(_:)` checks.
private struct StringSpan {
    var start: Int
    var count: Int
    /// No escapes: the bytes are the string, if they are valid UTF-8.
    var simple: Bool
    /// Every byte below 0x80.
    var ascii: Bool
}

private enum Byte {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), slash = UInt8(ascii: "/")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
    static let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: "."), zero = UInt8(ascii: "0")
    static let e = UInt8(ascii: "e"), capitalE = UInt8(ascii: "E")
    static let b = UInt8(ascii: "b"), f = UInt8(ascii: "f"), n = UInt8(ascii: "n"), r = UInt8(ascii: "r")
    static let t = UInt8(ascii: "t"), u = UInt8(ascii: "u"), a = UInt8(ascii: "a")

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// A byte that belongs to a number's token: digits, `.`, `+`, `-`, `e`, `E`.
    @inline(__always) static func continuesNumber(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == dot || byte == plus || byte == minus || byte == e || byte == capitalE
    }

    /// `byte` as a reason quotes it: printable ASCII as itself, anything else in hex.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}

/// Text from a body as a reason quotes it: on one line, in printable ASCII, at most 40 characters.
private func quoted(_ text: some StringProtocol) -> String {
    var out = "\""
    for (offset, scalar) in text.unicodeScalars.enumerated() {
        if offset == 40 {
            out += "…"
            break
        }
        switch scalar {
        case "\"", "\\": out += "\\" + String(scalar)
        case " "..."~": out.unicodeScalars.append(scalar)
        default: out += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return out + "\""
}

/// One pass over a body's bytes in the writer's order, refusing the first byte that is not
/// where the writer would have put it.
private struct BodyReader {
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private var index = 0
    /// Reused for strings with escapes.
    private var scratch: [UInt8] = []
    /// The last `createdBy` read: a segment's entries almost always share it, so it is validated once.
    private var lastCreator: (start: Int, count: Int, id: DeviceID)?

    init(_ bytes: UnsafeRawBufferPointer) throws {
        guard let start = bytes.baseAddress, !bytes.isEmpty else {
            throw BodyCodec.Unreadable(reason: "an empty body", offset: 0)
        }
        base = start.assumingMemoryBound(to: UInt8.self)
        end = bytes.count
        if end >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
            throw BodyCodec.Unreadable(reason: "a byte order mark, which the writer never writes", offset: 0)
        }
        let second = end > 1 ? base[1] : 0xFF
        if base[0] == 0 || second == 0 || (base[0], second) == (0xFE, 0xFF) || (base[0], second) == (0xFF, 0xFE) {
            throw BodyCodec.Unreadable(reason: "a UTF-16 or UTF-32 body; the writer writes UTF-8", offset: 0)
        }
    }

    // MARK: Bodies

    mutating func segment() throws -> SegmentBody {
        try key("{\"device\":", 0, of: .segment)
        let device: DeviceID = try folderName()
        try key(",\"entries\":", 1, of: .segment)
        var entries: [RecordEntry] = []
        try recordEntries { entries.append($0) }
        try key(",\"generation\":", 2, of: .segment)
        let generation: CloudGeneration = try folderName()
        try key(",\"hlc\":", 3, of: .segment)
        let hlc = try clock()
        try key(",\"seq\":", 4, of: .segment)
        let seq: Int = try integer()
        try key(",\"zone\":", 5, of: .segment)
        let zone: ZoneID = try folderName()
        try close(.segment)
        return SegmentBody(generation: generation, device: device, zone: zone, seq: seq, hlc: hlc, entries: entries)
    }

    mutating func snapshot() throws -> SnapshotBody {
        var entries: [RecordEntry] = []
        var body = try snapshot { entries.append($0) }
        body.entries = entries
        return body
    }

    /// The snapshot with its entries handed to `each` as they are read rather than kept.
    mutating func snapshot(each: (RecordEntry) throws -> Void) throws -> SnapshotBody {
        try key("{\"base\":", 0, of: .snapshot)
        let snapshotBase: Int = try integer()
        try key(",\"device\":", 1, of: .snapshot)
        let device: DeviceID = try folderName()
        try key(",\"entries\":", 2, of: .snapshot)
        try recordEntries(each: each)
        try key(",\"generation\":", 3, of: .snapshot)
        let generation: CloudGeneration = try folderName()
        try key(",\"zone\":", 4, of: .snapshot)
        let zone: ZoneID = try folderName()
        try close(.snapshot)
        return SnapshotBody(generation: generation, device: device, zone: zone, base: snapshotBase, entries: [])
    }

    /// Nothing may follow the body.
    func finish() throws {
        guard index == end else {
            throw Byte.isWhitespace(base[index]) ? whitespace(at: index) : unreadable("bytes after the body")
        }
    }

    // MARK: Records

    private mutating func recordEntries(each: (RecordEntry) throws -> Void) throws {
        try open(Byte.openBracket, "the entries (an array)")
        if at(Byte.closeBracket) {
            index += 1
            return
        }
        while true {
            try each(try recordEntry())
            if at(Byte.comma) {
                index += 1
            } else if at(Byte.closeBracket) {
                index += 1
                return
            } else {
                throw unexpected("',' or ']' after an entry", at: index)
            }
        }
    }

    private mutating func recordEntry() throws -> RecordEntry {
        try key("{\"createdAt\":", 0, of: .entry)
        let createdAt = try clock()
        try key(",\"createdBy\":", 1, of: .entry)
        let createdBy = try creator()
        try key(",\"deleted\":", 2, of: .entry)
        let deleted = try bool()
        var fields: [String: FieldValue]?
        if skip(",\"fields\":") {
            fields = try recordFields()
        }
        try key(",\"hlc\":", 4, of: .entry)
        let hlc = try clock()
        try key(",\"name\":", 5, of: .entry)
        let name = try string()
        try key(",\"seq\":", 6, of: .entry)
        let seq: Int = try integer()
        try key(",\"type\":", 7, of: .entry)
        let type = try string()
        try close(.entry)
        return RecordEntry(name: name, type: type, seq: seq, hlc: hlc, deleted: deleted, fields: fields,
                           createdBy: createdBy, createdAt: createdAt)
    }

    /// A record's fields: names in strictly increasing UTF-8 byte order, as the writer sorts them.
    private mutating func recordFields() throws -> [String: FieldValue] {
        try open(Byte.openBrace, "the fields (an object)")
        // Room for a game's dozen fields at once, rather than growing (and rehashing) three times.
        var fields = [String: FieldValue](minimumCapacity: 12)
        if at(Byte.closeBrace) {
            index += 1
            return fields
        }
        var previous: String?
        while true {
            let start = index
            let name = try string()
            if let previous, !BodyWriter.precedes(previous, name) {
                throw unreadable(previous.utf8.elementsEqual(name.utf8)
                    ? "field name \(quoted(name)) repeated"
                    : "field name \(quoted(name)) after \(quoted(previous)), out of the writer's order (UTF-8 bytes)", at: start)
            }
            guard at(Byte.colon) else { throw unexpected("':' after a field name", at: index) }
            index += 1
            guard fields.updateValue(try fieldValue(), forKey: name) == nil else {
                throw unreadable("field name \(quoted(name)) repeated (equal as a Swift string to an earlier one)", at: start)
            }
            previous = name
            if at(Byte.comma) {
                index += 1
            } else if at(Byte.closeBrace) {
                index += 1
                return fields
            } else {
                throw unexpected("',' or '}' after a field", at: index)
            }
        }
    }

    /// `{"int":4}` and the like: exactly one type key.
    private mutating func fieldValue() throws -> FieldValue {
        let value: FieldValue
        if skip("{\"string\":") {
            value = .string(try string())
        } else if skip("{\"int\":") {
            value = .int(try integer())
        } else if skip("{\"date\":") {
            value = .date(try date())
        } else if skip("{\"bool\":") {
            value = .bool(try bool())
        } else if skip("{\"strings\":") {
            value = .strings(try strings())
        } else if skip("{\"bytes\":") {
            value = .bytes(try bytes())
        } else if skip("{\"double\":") {
            value = .double(try double())
        } else {
            throw misplacedFieldType()
        }
        guard at(Byte.closeBrace) else {
            throw at(Byte.comma) ? unreadable("a second key in a field; a field has exactly one type key")
                                 : unexpected("'}' after a field's value", at: index)
        }
        index += 1
        return value
    }

    private mutating func clock() throws -> HLCTimestamp {
        try key("{\"counter\":", 0, of: .clock)
        let counter: UInt32 = try integer()
        try key(",\"millis\":", 1, of: .clock)
        let millis: Int64 = try integer()
        try close(.clock)
        return HLCTimestamp(millis: millis, counter: counter)
    }

    /// A device, zone or generation name that passes the folder allow-list.
    private mutating func folderName<Name: FolderNamed>() throws -> Name {
        let start = index
        let name = try string()
        guard Name.accepts(name) else { throw unreadable("\(quoted(name)) is not a valid \(Name.self)", at: start) }
        return Name(validated: name)
    }

    /// `createdBy`: when it spells the same bytes as the last one, the same (already checked) ID.
    private mutating func creator() throws -> DeviceID {
        let start = index
        let span = try stringSpan()
        if span.simple, let last = lastCreator, last.count == span.count,
           memcmp(base + last.start, base + span.start, span.count) == 0 {
            return last.id
        }
        let name = try string(span)
        guard DeviceID.accepts(name) else { throw unreadable("\(quoted(name)) is not a valid DeviceID", at: start) }
        let id = DeviceID(validated: name)
        if span.simple { lastCreator = (span.start, span.count, id) }
        return id
    }

    // MARK: Structure

    @inline(__always)
    private func at(_ byte: UInt8) -> Bool {
        index < end && base[index] == byte
    }

    @inline(__always)
    private func matches(_ literal: StaticString, at offset: Int? = nil) -> Bool {
        let offset = offset ?? index, count = literal.utf8CodeUnitCount
        return end - offset >= count && memcmp(base + offset, literal.utf8Start, count) == 0
    }

    /// Consumes `literal` if it is next.
    @inline(__always)
    private mutating func skip(_ literal: StaticString) -> Bool {
        guard matches(literal) else { return false }
        index += literal.utf8CodeUnitCount
        return true
    }

    private mutating func open(_ bracket: UInt8, _ what: String) throws {
        guard at(bracket) else { throw unexpected(what, at: index) }
        index += 1
    }

    /// The key at `position` of `shape` with what comes before it: `{"device":` for the first key
    /// of an object, `,"seq":` for the others.
    @inline(__always)
    private mutating func key(_ literal: StaticString, _ position: Int, of shape: Shape) throws {
        guard matches(literal) else { throw misplacedKey(position, of: shape) }
        index += literal.utf8CodeUnitCount
    }

    /// The `}` after the last key of `shape`.
    @inline(__always)
    private mutating func close(_ shape: Shape) throws {
        guard at(Byte.closeBrace) else { throw misplacedKey(nil, of: shape) }
        index += 1
    }

    // MARK: Values

    private mutating func bool() throws -> Bool {
        if skip("true") { return true }
        if skip("false") { return false }
        throw unexpected("true or false", at: index)
    }

    private mutating func string() throws -> String {
        try string(stringSpan())
    }

    /// The string at the reader, its closing quote consumed, checked to be spelled as the writer
    /// spells strings (see `BodyWriter.string`) but for its UTF-8, which `string(_:)` checks.
    private mutating func stringSpan() throws -> StringSpan {
        guard at(Byte.quote) else { throw unexpected("a string", at: index) }
        index += 1
        let start = index
        var simple = true, high: UInt8 = 0
        while index < end {
            let byte = base[index]
            if byte == Byte.quote {
                index += 1
                return StringSpan(start: start, count: index - 1 - start, simple: simple, ascii: high < 0x80)
            }
            if byte == Byte.backslash {
                simple = false
                try escape()
                continue
            }
            if byte < 0x20 { throw unreadable("a raw control character in a string; the writer escapes it") }
            if byte == Byte.slash { throw unreadable("a '/' in a string that the writer would have escaped as \\/") }
            high |= byte
            index += 1
        }
        throw unreadable("the body ends inside a string", at: start - 1)
    }

    /// One of the escapes the writer writes: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, or
    /// `\u00xx` (lower-case hex) for another character below U+0020.
    private mutating func escape() throws {
        guard end - index >= 2 else { throw unreadable("the body ends inside a string") }
        switch base[index + 1] {
        case Byte.quote, Byte.backslash, Byte.slash, Byte.b, Byte.f, Byte.n, Byte.r, Byte.t:
            index += 2
        case Byte.u where end - index >= 6 && Self.controlEscape(base + index + 2) != nil:
            index += 6
        default:
            let text = String(decoding: UnsafeBufferPointer(start: base + index, count: min(6, end - index)), as: UTF8.self)
            throw unreadable("an escape the writer never writes: \(quoted(text))")
        }
    }

    /// The character of `\u00xx` when the writer writes it that way: `xx` in lower-case hex, for
    /// a character below U+0020 that has no short escape.
    private static func controlEscape(_ digits: UnsafePointer<UInt8>) -> UInt8? {
        guard digits[0] == Byte.zero, digits[1] == Byte.zero, digits[2] == Byte.zero || digits[2] == Byte.zero + 1 else { return nil }
        let low = digits[3]
        let value: UInt8
        if Byte.isDigit(low) {
            value = (digits[2] - Byte.zero) << 4 | (low - Byte.zero)
        } else if low >= Byte.a && low <= Byte.f {
            value = (digits[2] - Byte.zero) << 4 | (low - Byte.a + 10)
        } else {
            return nil
        }
        switch value {
        case 0x08, 0x09, 0x0A, 0x0C, 0x0D: return nil
        default: return value
        }
    }

    /// The string a checked span holds: escapes undone, and refused unless valid UTF-8.
    private mutating func string(_ span: StringSpan) throws -> String {
        let start = base + span.start
        if span.simple {
            let bytes = UnsafeBufferPointer(start: start, count: span.count)
            return span.ascii ? String(decoding: bytes, as: UTF8.self) : try validated(bytes, at: span.start)
        }
        scratch.removeAll(keepingCapacity: true)
        var offset = 0
        while offset < span.count {
            let byte = start[offset]
            guard byte == Byte.backslash else {
                scratch.append(byte)
                offset += 1
                continue
            }
            // `stringSpan` checked every escape.
            switch start[offset + 1] {
            case Byte.b: scratch.append(0x08)
            case Byte.f: scratch.append(0x0C)
            case Byte.n: scratch.append(0x0A)
            case Byte.r: scratch.append(0x0D)
            case Byte.t: scratch.append(0x09)
            case Byte.u:
                scratch.append(Self.controlEscape(start + offset + 2)!)
                offset += 4
            case let escaped: scratch.append(escaped)
            }
            offset += 2
        }
        return try scratch.withUnsafeBufferPointer { try validated($0, at: span.start) }
    }

    /// The string the bytes spell, if they are valid UTF-8. Decoding repairs invalid bytes, so the
    /// bytes are valid exactly when the decoded string gives them back unchanged.
    private func validated(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.count == bytes.count, text.utf8.elementsEqual(bytes) else {
            throw unreadable("invalid UTF-8 in a string", at: offset)
        }
        return text
    }

    /// The number at the reader: every following byte that can belong to one.
    private mutating func numberToken() -> UnsafeBufferPointer<UInt8> {
        let start = index
        while index < end, Byte.continuesNumber(base[index]) { index += 1 }
        return UnsafeBufferPointer(start: base + start, count: index - start)
    }

    /// An integer in plain digits (`0`, `-?[1-9][0-9]*`) that fits `Integer`.
    private mutating func integer<Integer: FixedWidthInteger>() throws -> Integer {
        let start = index
        var position = index
        let negative = position < end && base[position] == Byte.minus
        if negative { position += 1 }
        let first = position
        var magnitude: UInt64 = 0
        while position < end, Byte.isDigit(base[position]) {
            if position - first < 19 { magnitude = magnitude &* 10 &+ UInt64(base[position] &- Byte.zero) }
            position += 1
        }
        let digits = position - first
        // No digits, a leading zero, `-0`, or more of a number (`.`, `e`, a sign) after them.
        guard digits > 0, position == end || !Byte.continuesNumber(base[position]),
              base[first] != Byte.zero || (digits == 1 && !negative) else {
            let token = numberToken()
            guard !token.isEmpty else { throw unexpected("an integer", at: start) }
            throw unreadable("an integer spelled \(quoted(String(decoding: token, as: UTF8.self))); the writer writes plain digits", at: start)
        }
        index = position
        var value: Integer?
        if digits <= 19 {
            if !negative {
                value = Integer(exactly: magnitude)
            } else if magnitude <= UInt64(Int64.max) {
                value = Integer(exactly: -Int64(magnitude))
            } else if magnitude == UInt64(Int64.max) + 1 {
                value = Integer(exactly: Int64.min)
            }
        }
        guard let value else {
            let text = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
            throw unreadable("the integer \(quoted(text)) is out of range for \(Integer.self)", at: start)
        }
        return value
    }

    /// A double, spelled exactly as the writer spells its value.
    private mutating func double() throws -> Double {
        let start = index
        let token = numberToken()
        guard !token.isEmpty else { throw unexpected("a number", at: start) }
        let text = String(decoding: token, as: UTF8.self)
        guard let value = Double(text) else { throw unreadable("a malformed number \(quoted(text))", at: start) }
        guard value.isFinite else { throw unreadable("the number \(quoted(text)) is out of range for Double", at: start) }
        let spelling = BodyWriter.spelling(value)
        guard spelling == text else {
            throw unreadable("a double spelled \(quoted(text)); the writer spells it \(quoted(spelling))", at: start)
        }
        return value
    }

    /// Milliseconds since 1970, as a date the writer would give back the same milliseconds for.
    private mutating func date() throws -> Date {
        let start = index
        let millis: Int64 = try integer()
        // As FieldValue's init(from:) makes the date.
        let date = Date(timeIntervalSince1970: Double(millis) / 1000)
        guard BodyWriter.milliseconds(date) == millis else {
            throw unreadable("the date \(millis) ms would not be written back the same (beyond what a Date keeps to the millisecond)", at: start)
        }
        return date
    }

    /// Base64 exactly as `base64EncodedString()` writes it.
    private mutating func bytes() throws -> Data {
        let start = index
        let text = try string()
        guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else {
            throw unreadable("bytes \(quoted(text)) not in the writer's base64", at: start)
        }
        return data
    }

    private mutating func strings() throws -> [String] {
        try open(Byte.openBracket, "a list of strings")
        var list: [String] = []
        if at(Byte.closeBracket) {
            index += 1
            return list
        }
        while true {
            list.append(try string())
            guard list.count <= CloudLimits.maxListItems else { throw unreadable("a list of more than \(CloudLimits.maxListItems) strings") }
            if at(Byte.comma) {
                index += 1
            } else if at(Byte.closeBracket) {
                index += 1
                return list
            } else {
                throw unexpected("',' or ']' in a list of strings", at: index)
            }
        }
    }

    // MARK: Reasons

    private func unreadable(_ reason: String, at offset: Int? = nil) -> BodyCodec.Unreadable {
        BodyCodec.Unreadable(reason: reason, offset: offset ?? index)
    }

    private func whitespace(at offset: Int) -> BodyCodec.Unreadable {
        unreadable("whitespace, which the writer never writes", at: offset)
    }

    /// Something other than `expected` at `offset`, said as precisely as the byte there allows.
    private func unexpected(_ expected: String, at offset: Int) -> BodyCodec.Unreadable {
        guard offset < end else { return unreadable("the body ends where \(expected) belongs", at: offset) }
        let byte = base[offset]
        if Byte.isWhitespace(byte) { return whitespace(at: offset) }
        if (byte == Byte.closeBrace || byte == Byte.closeBracket) && offset > 0 && base[offset - 1] == Byte.comma {
            return unreadable("a trailing comma, which the writer never writes", at: offset - 1)
        }
        if matches("null", at: offset) {
            return unreadable("null where \(expected) belongs; the writer never writes null", at: offset)
        }
        return unreadable("expected \(expected), found \(Byte.describe(byte))", at: offset)
    }

    /// Why the writer's key at `position` of `shape` (nil: its closing `}`) is not at the reader.
    private func misplacedKey(_ position: Int?, of shape: Shape) -> BodyCodec.Unreadable {
        let keys = shape.keys
        let expected = position.map { "key \"\(keys[$0])\" of \(shape.name)" } ?? "the '}' that ends \(shape.name)"
        var offset = index
        if position == 0 {
            guard offset < end, base[offset] == Byte.openBrace else { return unexpected(shape.name + " (an object)", at: offset) }
            offset += 1
            if offset < end, base[offset] == Byte.closeBrace {
                return unreadable("missing \(expected)", at: offset)
            }
        } else {
            guard offset < end else { return unexpected(expected, at: offset) }
            if base[offset] == Byte.closeBrace, position != nil { return unreadable("missing \(expected)", at: offset) }
            guard base[offset] == Byte.comma else { return unexpected(expected, at: offset) }
            offset += 1
        }
        guard offset < end, base[offset] == Byte.quote else { return unexpected(expected, at: offset) }
        // The key as written, to its closing quote.
        var close = offset + 1
        while close < end, base[close] != Byte.quote {
            close += base[close] == Byte.backslash ? 2 : 1
        }
        guard close < end else { return unreadable("the body ends inside a key", at: offset) }
        let raw = UnsafeBufferPointer(start: base + offset + 1, count: close - offset - 1)
        let name = String(decoding: raw, as: UTF8.self)
        if raw.contains(Byte.backslash) {
            return unreadable("an escape in the key \(quoted(name)); the writer writes keys as plain text", at: offset)
        }
        guard let known = keys.firstIndex(of: name) else {
            return unreadable("unknown key \(quoted(name)) in \(shape.name)", at: offset)
        }
        if known == position || !matches(":", at: close + 1) {
            // The key is where it belongs (or is not followed by ':'): what follows it is wrong.
            return unexpected("':' after the key", at: close + 1)
        }
        if let position, known > position {
            return unreadable("key \(quoted(name)) where the writer writes \"\(keys[position])\" (keys out of order, or one missing)", at: offset)
        }
        if shape == .entry && name == "fields" {
            return unreadable("key \"fields\" out of the writer's order, or repeated", at: offset)
        }
        return unreadable("repeated key \(quoted(name)) in \(shape.name)", at: offset)
    }

    /// Why a field's value does not start with `{"<type>":`.
    private func misplacedFieldType() -> BodyCodec.Unreadable {
        var offset = index
        guard offset < end, base[offset] == Byte.openBrace else { return unexpected("a field (an object)", at: offset) }
        offset += 1
        if offset < end, base[offset] == Byte.closeBrace { return unreadable("a field without a type key", at: offset) }
        guard offset < end, base[offset] == Byte.quote else { return unexpected("a field's type key", at: offset) }
        var close = offset + 1
        while close < end, base[close] != Byte.quote {
            close += base[close] == Byte.backslash ? 2 : 1
        }
        guard close < end else { return unreadable("the body ends inside a key", at: offset) }
        let name = String(decoding: UnsafeBufferPointer(start: base + offset + 1, count: close - offset - 1), as: UTF8.self)
        guard ["string", "int", "double", "bool", "date", "bytes", "strings"].contains(name) else {
            return unreadable("unknown field type \(quoted(name)); a field has exactly one type key", at: offset)
        }
        return unexpected("':' after the key", at: close + 1)
    }
}

// MARK: - Writing

/// Writes JSON in the one form `BodyCodec` describes (keys sorted by their UTF-8 bytes, no
/// whitespace, the fewest escapes): the bodies' writer, and the system fields'
/// (`SystemFields.encoded`). Its bytes are frozen: the fixtures hold it to them.
struct BodyWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Keys sorted by their UTF-8 bytes: `createdAt`, `createdBy`, `deleted`, `fields` (left out
    /// when nil, as the synthesised `encode(to:)` leaves it out), `hlc`, `name`, `seq`, `type`.
    mutating func entries(_ entries: [RecordEntry]) throws {
        bytes.append(Byte.openBracket)
        for (offset, entry) in entries.enumerated() {
            if offset > 0 { bytes.append(Byte.comma) }
            try self.entry(entry)
        }
        bytes.append(Byte.closeBracket)
    }

    mutating func entry(_ entry: RecordEntry) throws {
        raw("{\"createdAt\":")
        hlc(entry.createdAt)
        raw(",\"createdBy\":")
        string(entry.createdBy.name)
        raw(entry.deleted ? ",\"deleted\":true" : ",\"deleted\":false")
        if let fields = entry.fields {
            raw(",\"fields\":")
            try self.fields(fields)
        }
        raw(",\"hlc\":")
        hlc(entry.hlc)
        raw(",\"name\":")
        string(entry.name)
        raw(",\"seq\":")
        integer(Int64(entry.seq))
        raw(",\"type\":")
        string(entry.type)
        bytes.append(Byte.closeBrace)
    }

    mutating func hlc(_ clock: HLCTimestamp) {
        raw("{\"counter\":")
        integer(Int64(clock.counter))
        raw(",\"millis\":")
        integer(clock.millis)
        bytes.append(Byte.closeBrace)
    }

    private mutating func fields(_ fields: [String: FieldValue]) throws {
        bytes.append(Byte.openBrace)
        for (offset, field) in fields.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
            if offset > 0 { bytes.append(Byte.comma) }
            string(field.key)
            bytes.append(Byte.colon)
            try value(field.value)
        }
        bytes.append(Byte.closeBrace)
    }

    /// As `FieldValue.encode(to:)` writes each kind.
    private mutating func value(_ value: FieldValue) throws {
        switch value {
        case .string(let text):
            raw("{\"string\":")
            string(text)
        case .int(let number):
            raw("{\"int\":")
            integer(number)
        case .double(let number):
            guard number.isFinite else {
                throw EncodingError.invalidValue(number, .init(codingPath: [], debugDescription: "Unable to encode Double.\(number) directly in JSON."))
            }
            raw("{\"double\":")
            var text = Self.spelling(number)
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case .bool(let flag):
            raw(flag ? "{\"bool\":true" : "{\"bool\":false")
        case .date(let date):
            raw("{\"date\":")
            integer(Int64(Self.millisecondsRounded(date)))
        case .bytes(let data):
            raw("{\"bytes\":")
            string(data.base64EncodedString())
        case .strings(let list):
            raw("{\"strings\":[")
            for (offset, text) in list.enumerated() {
                if offset > 0 { bytes.append(Byte.comma) }
                string(text)
            }
            bytes.append(Byte.closeBracket)
        }
        bytes.append(Byte.closeBrace)
    }

    /// A finite double as the writer spells it: the shortest text that reads back as the same
    /// value (`description`), without a trailing `.0`. (As `JSONEncoder` spells doubles.)
    static func spelling(_ number: Double) -> String {
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A date as whole milliseconds since 1970, as the writer writes it, before it becomes an
    /// integer.
    private static func millisecondsRounded(_ date: Date) -> Double {
        (date.timeIntervalSince1970 * 1000).rounded()
    }

    /// The milliseconds the writer writes for `date`; nil where it could not write the date at all.
    static func milliseconds(_ date: Date) -> Int64? {
        let rounded = millisecondsRounded(date)
        guard rounded >= -0x1p63 && rounded < 0x1p63 else { return nil }
        return Int64(rounded)
    }

    /// The order of keys: by their UTF-8 bytes, lexicographically. (`JSONEncoder`'s order for
    /// sorted keys.)
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let answer = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool in
                let common = min(left.count, right.count)
                let order = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
                return order != 0 ? order < 0 : left.count < right.count
            }
        }
        return (answer ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// A quoted string, escaped as `JSONEncoder` escapes: `"`, `\` and `/` with a backslash,
    /// `\b \f \n \r \t`, other control characters as `\u00xx`; everything else as it is.
    mutating func string(_ text: String) {
        bytes.append(Byte.quote)
        var text = text
        text.withUTF8 { utf8 in
            var mark = 0
            for offset in 0..<utf8.count {
                let byte = utf8[offset]
                guard byte < 0x20 || byte == Byte.quote || byte == Byte.backslash || byte == Byte.slash else { continue }
                if offset > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark..<offset])) }
                mark = offset + 1
                bytes.append(Byte.backslash)
                switch byte {
                case Byte.quote, Byte.backslash, Byte.slash: bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    bytes.append(contentsOf: [Byte.u, Byte.zero, Byte.zero, hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)]])
                }
            }
            if utf8.count > mark { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[mark...])) }
        }
        bytes.append(Byte.quote)
    }

    /// Bytes as they are: text that needs no escaping, such as a folder name.
    mutating func plain(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// A clock reading as `HLCTimestamp.description` spells it: milliseconds in at least 13
    /// digits, a dot, the counter in at least 5.
    mutating func clockReading(_ clock: HLCTimestamp) {
        integer(clock.millis, width: 13)
        bytes.append(UInt8(ascii: "."))
        integer(Int64(clock.counter), width: 5)
    }

    /// Decimal digits, as `description` spells them, with leading zeros up to `width`.
    mutating func integer(_ value: Int64, width: Int = 1) {
        if value < 0 { bytes.append(Byte.minus) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = Byte.zero + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            for _ in 0..<max(0, width - (20 - start)) { bytes.append(Byte.zero) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
