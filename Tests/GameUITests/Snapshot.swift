@testable import QiktionaryCore
import Foundation
import Screen
import Testing
@testable import GameUI

/// Compares a rendered screen with the expected text. With QIKTIONARY_RECORD=DIR set, writes the
/// rendering to DIR/NAME.txt instead, to review and paste when a screen changes on purpose.
func expectScreen(_ state: AppState, _ width: Int, _ height: Int, _ expected: String, _ name: String,
                  sourceLocation: SourceLocation = #_sourceLocation) {
    let buffer = view(state, size: Size(width: width, height: height))
    if let folder = ProcessInfo.processInfo.environment["QIKTIONARY_RECORD"] {
        try? buffer.text.write(toFile: "\(folder)/\(name)-\(width)x\(height).txt", atomically: true, encoding: .utf8)
        return
    }
    #expect(buffer.text == expected, "screen \(name) at \(width)x\(height)", sourceLocation: sourceLocation)
}
