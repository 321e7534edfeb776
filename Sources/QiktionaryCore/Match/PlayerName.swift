import TextSafety

/// The names players go by, in the shared folder and in matches. A name is a path component of
/// the folder (`players/<name>/`) and is shown to the other players, so it is held to an
/// allow-list: 1 to 32 ASCII letters, digits, '_' and '-', starting with a letter or digit.
/// Nothing a terminal would obey, no '/', '..' or dot-file can pass. Names are compared exactly:
/// "Ben" and "ben" are two players.
public enum PlayerName {
    public static let maxLength = 32

    /// Why a name is not allowed, as one line (the name shown escaped); nil when it is allowed.
    public static func problem(_ name: String) -> String? {
        if let problem = TerminalText.problem(name, field: "player name") { return problem }
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return "a player name is empty" }
        if bytes.count > maxLength { return "player name \(quoted(name)) is longer than \(maxLength) characters" }
        if !isAlphanumeric(first) { return "player name \(quoted(name)) must start with a letter or digit" }
        if !bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }) {
            return "player name \(quoted(name)) may hold only letters a-z and A-Z, digits, '_' and '-'"
        }
        return nil
    }

    public static func isValid(_ name: String) -> Bool { problem(name) == nil }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    /// A text from the folder inside a message: escaped to one line, cut after 40 characters.
    /// A text from the folder as a refusal names it, quoted and on one line: whole up to 48
    /// characters; a longer one cut at 40, with a check of the whole after `#`, so two
    /// long texts that start alike are never told as one.
    public static func quoted(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 48 else { return "'" + oneLine(text) + "'" }
        var check: UInt32 = 2_166_136_261
        for byte in text.utf8 { check = (check ^ UInt32(byte)) &* 16_777_619 }
        return "'" + oneLine(String(String.UnicodeScalarView(scalars.prefix(40)))) + "…' #" + String(check, radix: 16)
    }
}
