import App
import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore
import Screen
import TerminalUI
import TextSafety

/// Prints text for a person. Every line a command prints goes through here or `printJSON`:
/// whatever it quotes from data (a fact, a pack's title, a device name) has each character a
/// terminal would obey shown as a visible escape (`visible`), so no file commands the terminal.
func say(_ text: String) {
    Swift.print(forLocale(visible(text)))
}

/// Text as this terminal's locale can show it: ASCII stand-ins (as the full screen draws) when
/// the locale is not UTF-8.
func forLocale(_ text: String) -> String {
    CursesTerminal.localeIsUTF8 ? text : Glyphs.asciiText(text)
}

/// Prints a value as JSON for the `--json` of commands (`JSONLine` escapes what a terminal would obey).
func printJSON<T: Encodable>(_ value: T) {
    Swift.print(JSONLine.encode(value))
}

/// What the commands that list the player's games, packs or facts take: the options every
/// command takes and `--json`.
struct ListOptions: ParsableArguments {
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON array.") var json = false

    /// Opens the data and prints the list `read` gives: with --json a JSON array of each item's
    /// `view`; else `empty`, when there is nothing and it is given; else the `text`.
    func print<Item, View: Encodable>(_ read: (Setup) throws -> [Item], as view: (Item) -> View, empty: String? = nil,
                                      text: ([Item]) -> String) throws {
        let setup = try Setup.open(shared)
        // What the other machine changed shows: a quiet sync first (none with --no-sync).
        setup.sync.inPassing()
        let items = try read(setup)
        if json { return printJSON(items.map(view)) }
        if items.isEmpty, let empty { return say(empty) }
        say(text(items))
    }
}

extension Voice {
    /// The program's: lines on stdout through `say`, warnings and notes on stderr through `oneLine`.
    static let standard = Voice(
        say: { sayLine($0) }, warn: { warnLine($0) },
        note: { FileHandle.standardError.write(Data("qiktionary: \(oneLine($0))\n".utf8)) },
        stop: { Qiktionary.exit(reporting: $0) })
}

private func sayLine(_ text: String) { say(text) }
private func warnLine(_ text: String) { warn(text) }
