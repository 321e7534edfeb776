import TextSafety

/// Fitting text to columns.
public enum Text {
    /// The text cut to `width` columns, ending in `ellipsis` when it was cut.
    /// Characters a terminal would obey are counted as the visible escapes drawn for them.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        let text = oneLine(text)
        guard text.columns > width else { return text }
        guard width > ellipsis.columns else { return String(prefix(text, columns: width)) }
        return prefix(text, columns: width - ellipsis.columns) + ellipsis
    }

    /// The longest start of `text` that fits in `columns`.
    public static func prefix(_ text: String, columns: Int) -> String {
        let text = oneLine(text)
        var used = 0
        var result = ""
        for character in text {
            used += character.columns
            if used > columns { break }
            result.append(character)
        }
        return result
    }

    /// Word-wrapped lines of at most `width` columns; a word longer than a line is split.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        // Line breaks make lines; any other character a terminal would obey is laid out as the
        // visible escape drawn for it.
        for paragraph in visible(text).split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                var word = String(word)
                while word.columns > width {
                    if !line.isEmpty { lines.append(line); line = "" }
                    let head = prefix(word, columns: width)
                    lines.append(head)
                    word.removeFirst(head.count)
                }
                if line.isEmpty {
                    line = word
                } else if line.columns + 1 + word.columns <= width {
                    line += " " + word
                } else {
                    lines.append(line)
                    line = word
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// `text` padded with spaces (or cut) to exactly `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let fitted = truncate(text, to: width)
        return fitted + String(repeating: " ", count: max(0, width - fitted.columns))
    }
}
