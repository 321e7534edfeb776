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
