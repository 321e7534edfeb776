import QiktionaryCore
import Screen

extension Canvas {
    /// A finished game's review: each guess with the words possible before and after it, what
    /// it was expected to leave and the best guess at that point; then skill and luck.
    mutating func drawReview(_ shown: ShownReview, _ area: Rect) {
        let game = shown.game.game
        let inner = box(area, "Review: \(game.secret.uppercased())")
        guard !inner.isEmpty else { return }
        let arrow = glyphs == .ascii ? "->" : "→"
        func padLeft(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.columns)) + text }
        let width = inner.width - 2
        // Too narrow for the best guess beside each row: it goes on a line of its own under it.
        let header = "  #  guess    possible    expected"
        let beside = (header + "  best guess").columns <= width && shown.review.steps.allSatisfy { row($0, 0).columns <= width }
        var lines: [(String, Style)] = [
            ("\(endLine(shown.game, here: state.device))  \(game.rules.rawValue)\(game.hard ? ", hard" : "")"
                + (shown.game.hints.isEmpty ? "" : ", \(shown.game.hints.count) \(shown.game.hints.count == 1 ? "hint" : "hints")"), .bold),
            ("", .plain),
            (beside ? header + "  best guess" : header, .dim),
        ]
        func best(_ step: Review.Step) -> String {
            step.word == step.best || step.expected <= step.bestExpected + 1e-9
                ? "\(glyphs.check) as good as the best"
                : "\(step.best.uppercased()) (\(Review.format(step.bestExpected)))"
        }
        /// The step's number, guess, words possible before and after, and its expected figure.
        func figures(_ step: Review.Step, _ i: Int) -> String {
            let possible = Text.pad("\(step.candidatesBefore) \(arrow) \(step.candidatesAfter)", to: 11)
            return "\(padLeft(String(i + 1), 3))  \(Text.pad(step.word.uppercased(), to: 8)) \(possible) \(padLeft(Review.format(step.expected), 8))"
        }
        func row(_ step: Review.Step, _ i: Int) -> String { figures(step, i) + "  " + best(step) }
        for (i, step) in shown.review.steps.enumerated() {
            if beside {
                lines.append((row(step, i), .plain))
            } else {
                lines += [(figures(step, i), .plain), ("       best: " + best(step), .dim)]
            }
        }
        lines += [("", .plain), (Review.summary(skill: shown.review.skill, luck: shown.review.luck), .bold),
                  ("Expected: the words a guess leaves on average; best: the hint at that point.", .dim)]
        // Sentences wrap; a table row too wide ends in an ellipsis.
        lines = lines.flatMap { line -> [(String, Style)] in
            guard line.0.columns > width else { return [line] }
            let isRow = line.0.hasPrefix("  ")
            return isRow ? [(Text.truncate(line.0, to: width, ellipsis: glyphs.ellipsis), line.1)] : Text.wrap(line.0, width: width).map { ($0, line.1) }
        }
        let scroll = min(state.reviewScroll, max(0, lines.count - inner.height))
        for (row, line) in lines.dropFirst(scroll).prefix(inner.height).enumerated() {
            buffer.write(line.0, x: inner.x + 1, y: inner.y + row, style: line.1, limit: inner.width - 1)
        }
        if scroll + inner.height < lines.count { buffer.write(String(glyphs.arrowDown), x: inner.maxX - 1, y: inner.maxY - 1, style: .bold) }
        if scroll > 0 { buffer.write(String(glyphs.arrowUp), x: inner.maxX - 1, y: inner.y, style: .bold) }
    }
}
