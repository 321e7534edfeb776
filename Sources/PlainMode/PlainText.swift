import QiktionaryCore

/// Plain mode's text form: short lines a person or a screen reader can follow.
enum PlainText {
    static func render(_ event: PlainEvent) -> String {
        switch event {
        case .started(let game, let resumed, let match):
            let verb = resumed ? "Resumed" : "New game"
            let number = game.dailyNumber.map { "#\($0) " } ?? ""
            let source = (match.map { "\($0), " } ?? "")
                + (game.daily.map { "the daily word \(number)of \($0), pack \(game.pack)" } ?? "pack \(game.pack)")
            return "\(verb): \(source), \(game.length) letters, \(game.rules.rawValue) rules\(game.hard ? ", hard mode" : ""), "
                + "help: \(game.assist.shareLabel), "
                + "\(game.guessesLeft) of \(game.maxGuesses) guesses left. Game \(game.id)."
                + (game.guesses.isEmpty ? "" : "\n" + guessLines(game.guesses))
        case .feedback(_, let n, let guess, let left, let candidates, let note):
            return "\(line(n, guess))\(note.map { ": \($0)" } ?? "")   (\(left) left\(candidates.map { "; " + GameCoach.stillPossible($0) } ?? ""))"
        case .hint(_, let word, _, _, let reason):
            return "Hint: \(word.uppercased()). It \(reason)."
        case .rejected(let input, let reason, _):
            return "'\(input)' refused: \(reason)."
        case .ended(let game, let result, let word, let fact, let score, let challenge, let nextDaily, let foundOn, let elsewhere, let nextMatch):
            let place = elsewhere ? foundOn.map { ", found on \($0)" } ?? "" : ""
            let headline = switch result {
            case .won: "You won! The word was \(word.uppercased())\(place). Score \(score)."
            case .lost: "Out of guesses. The word was \(word.uppercased())."
            default: "Given up. The word was \(word.uppercased())."
            }
            let story = fact.isEmpty ? Practice.noFact : fact
            let pass = challenge.map { "\nChallenge a friend with code \($0)." } ?? ""
            // A game of a match offers the player's next game of it.
            let another = nextMatch.map { "'new --match \($0.matchId)' for game \($0.game) of the \($0.title.split(separator: ",")[0])" }
                ?? "'new' for another game"
            let next = fact.isEmpty ? "Type \(another)." : "Type 'bookmark' to keep this fact, or \(another)."
            let daily = game.daily != nil ? nextDaily.map { "\nThe next daily word comes in \(DailyClock.duration(seconds: $0)) (at midnight)." } ?? "" : ""
            return "\(headline)\n\(story)\(pass)\(daily)\n\(next)"
        case .share(_, let text):
            return text
        case .bookmarked(let word, _):
            return "\(word.uppercased()) is on your reading list."
        case .unbookmarked(let word):
            return "\(word.uppercased()) is off your reading list."
        case .marked(_, let letter, let mark):
            return "Marked \(letter.uppercased()): \(mark)."
        case .games(let games):
            if games.isEmpty { return "No games in progress." }
            return games.map { "\($0.id)  \($0.pack)  \(MatchText.count($0.guesses.count, "guess", "guesses")), \($0.guessesLeft) left, on \($0.lastChangedOn)" }
                .joined(separator: "\n")
        case .board(let game, let notepad):
            // A proven mark in brackets, the player's own bare: [A✓] B✗ C·.
            let letters = Notepad.alphabet.map { c -> String in
                let mark = notepad[String(c)] ?? ""
                let symbol = mark.hasPrefix("out") ? "✗" : mark.hasPrefix("in") ? "✓" : "·"
                let cell = "\(c.uppercased())\(symbol)"
                return mark.hasSuffix("(yours)") || mark.isEmpty ? cell : "[\(cell)]"
            }.joined(separator: " ")
            return "Game \(game.id): \(game.pack), \(game.rules.rawValue), \(game.guessesLeft) of \(game.maxGuesses) left\n"
                + (game.guesses.isEmpty ? "" : guessLines(game.guesses) + "\n") + letters
                + "\n[X✓] \(game.status.isFinished ? Assist.coach.legend : game.assist.legend); X✓ your own marks"
        case .help(let commands):
            return commands.joined(separator: "\n")
        case .error(let message):
            return "error: \(message)"
        }
    }

    private static func guessLines(_ guesses: [GuessJSON]) -> String {
        guesses.enumerated().map { line($0.offset + 1, $0.element) }.joined(separator: "\n")
    }

    private static func line(_ n: Int, _ guess: GuessJSON) -> String {
        let number = n < 10 ? " \(n)" : "\(n)"
        return "\(number). \(guess.word.uppercased())  \(guess.feedback.summary)" + (guess.device.map { "  (on \($0))" } ?? "")
    }
}

/// `history show`: a finished game's review as lines a person reads.
public enum ReviewText {
    public static func render(_ review: ReviewJSON) -> String {
        let game = review.game
        // A guess another machine played after the win is reviewed too, but not counted.
        let after = review.guesses.count - game.guesses
        var lines = ["\(game.word.uppercased()): \(game.result.rawValue), \(MatchText.count(game.guesses, "guess", "guesses")), "
                     + (after > 0 ? "\(MatchText.count(after, "more", "more")) played after the win on another machine, " : "")
                     + "\(game.pack), \(game.rules.rawValue)\(game.hard ? ", hard" : "")" + MatchText.hints(game.hints)]
        for (i, step) in review.guesses.enumerated() {
            let verdict = Review.verdict(word: step.word, best: step.best, expected: step.expected, bestExpected: step.bestExpected)
            lines.append(String(i + 1).leftPadded(3) + ". \(step.word.uppercased())  \(step.candidatesBefore) → \(step.candidatesAfter) possible, "
                         + "\(Review.format(step.expected)) expected; \(verdict)")
        }
        lines.append(Review.summary(skill: review.skill, luck: review.luck))
        if let code = review.challenge { lines.append("Challenge a friend with code \(code).") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
