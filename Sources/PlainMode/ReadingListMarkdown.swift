import QiktionaryCore

/// The reading list as a Markdown document (`reading-list --markdown`).
public enum ReadingListMarkdown {
    public static func render(_ list: [Bookmark], packTitles: [String: String]) -> String {
        var lines = ["# Reading list", ""]
        guard !list.isEmpty else {
            return (lines + ["Nothing bookmarked yet: bookmark a fact when a game ends."]).joined(separator: "\n")
        }
        lines.append(list.count == 1 ? "One fact kept from games of qiktionary." : "\(list.count) facts kept from games of qiktionary, newest first.")
        for bookmark in list {
            let pack = packTitles[bookmark.packID] ?? bookmark.packID
            lines += ["", "## \(escape(bookmark.word.prefix(1).uppercased() + bookmark.word.dropFirst()))", "",
                      escape(bookmark.fact.split(whereSeparator: \.isNewline).joined(separator: " ")), "",
                      "*\(escape(pack))* · bookmarked \(String(CivilDate.shortText(bookmark.addedAt).prefix(10)))"]
        }
        return lines.joined(separator: "\n")
    }

    /// Text that reads as itself in Markdown: the characters that would start emphasis, code,
    /// links or HTML are escaped, and so is a line start that would make a heading or a list.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\`*_[]<>|".contains(character) { out.append("\\") }
            out.append(character)
        }
        if let first = out.first, "#+-=>".contains(first) { out = "\\" + out }
        if let dot = out.firstIndex(of: "."), out[..<dot].allSatisfy(\.isNumber), !out[..<dot].isEmpty {
            out.insert("\\", at: dot)
        }
        return out
    }
}

