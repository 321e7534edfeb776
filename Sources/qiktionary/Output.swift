import ArgumentParser
import Foundation
import PlainMode
import QiktionaryCore

/// Prints a value as pretty JSON for the `--json` of list commands.
func printJSON<T: Encodable>(_ value: T) {
    print(JSONLine.encode(value))
}

/// Left-aligned columns separated by two spaces; the last column is not padded.
func columns(_ rows: [[String]]) -> String {
    guard let width = rows.map(\.count).max() else { return "" }
    let widths = (0..<width).map { i in rows.map { i < $0.count ? $0[i].count : 0 }.max() ?? 0 }
    return rows.map { row in
        row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
            .joined(separator: "  ")
    }.joined(separator: "\n")
}

/// A date as people read it in lists: 2026-11-22 14:05 (UTC).
func shortDate(_ date: Date?) -> String { date.map(CivilDate.shortText) ?? "" }

/// What the commands that list the player's games, packs or facts take: the options every
/// command takes and `--json`.
struct ListOptions: ParsableArguments {
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON array.") var json = false

    /// Opens the data and prints the list `read` gives: with --json a JSON array of each item's
    /// `view`; else `empty`, when there is nothing and it is given; else the `text`.
    func print<Item, View: Encodable>(_ read: (Setup) throws -> [Item], as view: (Item) -> View, empty: String? = nil,
                                      text: ([Item]) -> String) throws {
        let items = try read(Setup.open(shared))
        if json { return printJSON(items.map(view)) }
        if items.isEmpty, let empty { return Swift.print(empty) }
        Swift.print(text(items))
    }
}
