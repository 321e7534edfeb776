import Foundation
import Testing

/// A locale that is not UTF-8 gets ASCII from every command, as from the full screen.
@Suite struct LocaleTests {
    @Test func theCCLocaleGetsASCIIFromPlainModeShareHistoryAndStats() throws {
        let machine = Machine()
        defer { machine.remove() }
        let c = ["LANG": "C", "LC_ALL": "C", "LC_CTYPE": "C"]
        let played = try Binary.run(["play", "--plain", "--word", "tiger"] + machine.options,
                                    input: "crane\nmark z out\ntiger\nbookmark\nshare\nboard\n", environment: c)
        #expect(played.status == 0)
        let outputs = [played.stdout] + (try ["history", "stats", "reading-list", "status"].map {
            try Binary.run([$0, "--no-sync"] + machine.options, environment: c).stdout
        })
        for output in outputs {
            #expect(!output.isEmpty)
            let ascii = output.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "not ASCII:\n\(output)")
        }
        #expect(played.stdout.contains("***** +"), "the share grid in ASCII:\n\(played.stdout)")
        #expect(outputs[1].contains("* tiger"), "history's bookmark star:\n\(outputs[1])")
        #expect(outputs[2].contains("####"), "the stats bars:\n\(outputs[2])")
        // A UTF-8 locale keeps the symbols.
        let utf8 = try Binary.run(["history", "--no-sync"] + machine.options, environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(utf8.stdout.contains("★ tiger"))
    }
}
