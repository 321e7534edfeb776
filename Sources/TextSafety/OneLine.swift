/// Text from files, folders and other players is untrusted: a fact, a pack's title or a device
/// name could hold an escape sequence that a terminal would obey (colours, the window title,
/// the clipboard through OSC 52, cursor moves over earlier output) or a bidirectional override
/// that shows the text in another order than it is. This file is the one home of the rule (which
/// characters a text from data may not hold: `TerminalText.isSafe`), the check every gate
/// applies (`TerminalText.problem`), and the escaping every output applies (`visible`,
/// `oneLine`, `TerminalText.jsonSafe`).
public enum TerminalText {
    /// Whether a scalar is one a terminal may take as part of a command or that reorders or breaks
    /// the line: C0 controls, DEL, C1 controls (`generalCategory == .control` is exactly those),
    /// the bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and
    /// the line and paragraph separators (U+2028, U+2029).
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether a text holds none of the unsafe scalars. Read as bytes: a full fetch checks the
    /// fact of every game, so printable ASCII, the usual case, costs one comparison a byte.
    public static func isSafe(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var i = 0
            let count = bytes.count
            while i < count {
                let byte = bytes[i]
                if byte < 0x20 || byte == 0x7F { return false }
                if byte >= 0x80 {
                    // C1: U+0080–U+009F is C2 80–C2 9F.
                    if byte == 0xC2, i + 1 < count, (0x80...0x9F).contains(bytes[i + 1]) { return false }
                    // U+2028–U+202E is E2 80 A8–AE; U+2066–U+2069 is E2 81 A6–A9.
                    if byte == 0xE2, i + 2 < count {
                        let (b1, b2) = (bytes[i + 1], bytes[i + 2])
                        if b1 == 0x80, (0xA8...0xAE).contains(b2) { return false }
                        if b1 == 0x81, (0xA6...0xA9).contains(b2) { return false }
                    }
                }
                i += 1
            }
            return true
        }
    }

    /// The one check of every gate: nil when the text is safe, else one line saying what holds
    /// what, with the text shown escaped around the first unsafe character, e.g.
    /// `fact holds a control character: 'Stripes \x1b[31mRED…'`.
    public static func problem(_ text: String, field: String) -> String? {
        if isSafe(text) { return nil }
        let scalars = Array(text.unicodeScalars)
        let first = scalars.firstIndex(where: isUnsafe) ?? 0
        let start = max(0, first - 20)
        let shown = String(String.UnicodeScalarView(scalars[start..<min(scalars.count, first + 20)]))
        let excerpt = (start > 0 ? "…" : "") + oneLine(shown) + (first + 20 < scalars.count ? "…" : "")
        return "\(field) holds a control character: '\(excerpt)'"
    }

    /// JSON made safe for a terminal as well: the encoder already writes C0 controls as escapes,
    /// but not DEL, C1 controls or the bidirectional controls, which only ever appear inside
    /// strings, where `\uXXXX` means the same character. The result is the same JSON value.
    public static func jsonSafe(_ json: String) -> String {
        escaped(json, keeping: { $0 == "\n" || $0 == "\t" || $0 == "\r" }, as: { "\\u\(hex($0.value, digits: 4))" })
    }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// How one unsafe scalar is shown: `\n`, `\r`, `\t`, `\x1b` below U+0100, `\u202e` above.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: scalar.value < 0x100 ? "\\x\(hex(scalar.value, digits: 2))" : "\\u\(hex(scalar.value, digits: 4))"
        }
    }

    /// The text with every unsafe scalar that is not `kept` written `as` given.
    static func escaped(_ text: String, keeping kept: (Unicode.Scalar) -> Bool,
                        as shown: (Unicode.Scalar) -> String = escape) -> String {
        // Printable text, what nearly every call gets (each cell the screen draws), by its bytes.
        if isSafe(text) { return text }
        guard text.unicodeScalars.contains(where: { isUnsafe($0) && !kept($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) && !kept(scalar) {
                out.append(contentsOf: shown(scalar).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

/// Text as a terminal should show it, for every output of text from data: each unsafe character
/// (`TerminalText.isUnsafe`) becomes a visible escape (`\x1b`, `\u202e`), except line breaks and
/// tabs, which the outputs' own layout uses.
public func visible(_ text: String) -> String {
    TerminalText.escaped(text) { $0 == "\n" || $0 == "\t" }
}

/// Text made safe to print as one line, whatever it holds: every unsafe character, line breaks
/// among them, is shown as a visible escape. For messages that name what a hostile or damaged
/// file or folder holds.
public func oneLine(_ text: String) -> String {
    TerminalText.escaped(text) { _ in false }
}
