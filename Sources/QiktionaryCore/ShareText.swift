/// A finished game told without giving anything away: the pack, the rules, hard or not, the
/// help level, the guesses used, and one line of symbols per guess. No letter of the secret or of any guess
/// appears; the only letters are the header's words.
public enum ShareText {
    /// One symbol per letter of the word: `●` shared (classic) or in place (mastermind), `○`
    /// elsewhere in the word (mastermind), `·` nothing; the winning guess is all `●` and marked
    /// with `✓`.
    public static func summary(game: Game, packTitle: String, date: String? = nil, hints: Int = 0) -> String {
        let used = game.status == .won ? "\(game.guesses.count)/\(game.maxGuesses)" : "X/\(game.maxGuesses)"
        // A pack whose title holds the word or a guess would give it away: it goes unnamed.
        let words = [game.secret] + game.guesses.map(\.word)
        let title = words.contains { packTitle.lowercased().contains($0) } ? "a pack" : packTitle
        // A daily game by its number ("Qiktionary daily #412"); one before the first daily by its date.
        var header = date.map { date in DailyWord.number(date: date).map { ["Qiktionary daily #\($0)"] } ?? ["Qiktionary", "daily \(date)"] }
            ?? ["Qiktionary", title]
        header.append(game.rules.rawValue)
        if game.hard { header.append("hard") }
        header.append(game.assist.shareLabel)
        header.append(used)
        if hints > 0 { header.append(hints == 1 ? "1 hint" : "\(hints) hints") }
        var lines = [header.joined(separator: " · ")]
        for guess in game.guesses {
            let won = guess.word == game.secret
            lines.append(symbols(guess.feedback, length: game.length) + (won ? " ✓" : ""))
        }
        if game.status == .gaveUp { lines.append("(given up)") }
        return lines.joined(separator: "\n")
    }

    static func symbols(_ feedback: Feedback, length: Int) -> String {
        switch feedback {
        case .common(let n):
            String(repeating: "●", count: n) + String(repeating: "·", count: max(0, length - n))
        case .mastermind(let inPlace, let inWord):
            String(repeating: "●", count: inPlace) + String(repeating: "○", count: inWord)
                + String(repeating: "·", count: max(0, length - inPlace - inWord))
        }
    }
}
