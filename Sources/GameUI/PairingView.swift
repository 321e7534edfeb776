import Screen

extension Canvas {
    /// The pairing screen: why this machine must join its player's machines, the command that
    /// gives a code on one already in, and the code as typed so far.
    mutating func drawPairing(_ entry: PairingEntry, _ area: Rect) {
        let inner = box(area, "Pair this machine")
        guard !inner.isEmpty else { return }
        let name = state.player.isEmpty ? "Your player" : state.player
        let typed = entry.grouped
        // The rest of the code as blanks to fill, grouped as the code is.
        let blanks = PairingEntry(code: entry.code + String(repeating: "_", count: PairingEntry.length - entry.code.count)).grouped
        let code = typed + String(blanks.dropFirst(typed.count))
        let status: (String, Style)? = entry.joining ? ("Joining" + glyphs.ellipsis, Style(color: .cyan))
            : entry.problem.map { ($0, Style(color: .red, bold: true)) }
        // (text, style, dropped first when the box is short: a higher rank goes sooner).
        // Blank lines between the paragraphs go first, then the explanations.
        var parts: [(String, Style, Int)] = [
            ("\(name) already syncs in this folder from another machine. Only \(name)'s machines may write there as \(name), so this one joins once.", .plain, 2),
            ("", .plain, 4),
            ("On a machine that already syncs, run:", .plain, 0),
            ("  qiktionary devices add", .bold, 0),
            ("and type the code it prints (it lasts 10 minutes):", .plain, 1),
            ("", .plain, 4),
            ("Code: \(code)", Style(color: .yellow, bold: true), 0),
        ]
        if let status { parts.append((status.0, status.1, 0)) }
        parts += [("", .plain, 4), ("Esc plays on this machine alone for now: your games stay here, and F5 brings this back.", .dim, 3)]
        let width = inner.width - 2
        func lines(_ parts: [(String, Style, Int)]) -> [(String, Style)] {
            // A command keeps its indent (and is cut, never wrapped); sentences wrap.
            parts.flatMap { part in
                part.0.isEmpty || part.0.hasPrefix("  ") ? [(part.0, part.1)] : Text.wrap(part.0, width: max(1, width)).map { ($0, part.1) }
            }
        }
        var shown = lines(parts)
        while shown.count > inner.height, let rank = parts.map(\.2).filter({ $0 > 0 }).max() {
            parts.removeAll { $0.2 == rank }
            shown = lines(parts)
        }
        for (row, line) in shown.prefix(inner.height).enumerated() {
            writeCut(line.0, x: inner.x + 1, y: inner.y + row, style: line.1, limit: inner.width - 1)
        }
    }
}
