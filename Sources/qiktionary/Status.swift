import App
import ArgumentParser
import PlainMode

struct Status: ParsableCommand, UsesData {
    static let configuration = CommandConfiguration(abstract: "Who, where, and how your games and sync stand.")
    @OptionGroup var shared: SharedOptions
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let report = try StatusReport(try Setup.open(shared))
        if json { return printJSON(report) }
        say(ListText.columns(report.rows))
    }
}
