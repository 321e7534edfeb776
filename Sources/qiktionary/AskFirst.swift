import App
import Foundation
import TextSafety

/// Asks before a destructive step. Without a terminal and without --yes it refuses, so a
/// script never deletes something by accident.
enum AskFirst {
    static func require(_ question: String, yes: Bool, refusal: String) throws {
        if yes { return }
        guard isatty(STDIN_FILENO) != 0 else {
            throw Failure("\(refusal): add --yes to confirm (no terminal to ask on)")
        }
        FileHandle.standardError.write(Data("\(oneLine(question)) [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw Failure("\(refusal): not confirmed") }
    }
}
