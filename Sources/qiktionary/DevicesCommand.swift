import App
import ArgumentParser
import Foundation

/// `qiktionary devices`: the player's machines, each with its signing key's fingerprint
/// (docs/trust.md); `add`, `join` and `remove` pair and unpair them.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Your machines: only they can write your games and results into the shared folder.",
        discussion: """
            Every machine signs what it writes to the cloud folder, and a file counts as yours only when \
            one of your machines signed it. The first machine that syncs starts your set; a new machine \
            joins once: run 'qiktionary devices add' on a machine already in, then \
            'qiktionary devices join CODE' on the new one within 10 minutes.
            """,
        subcommands: [List.self, Add.self, Join.self, Remove.self], defaultSubcommand: List.self
    )

    struct List: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Your machines and their fingerprints.")
        @OptionGroup var shared: SharedOptions
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            let (lines, member) = try setup.devices()
            if json { return printJSON(["devices": lines]) }
            if !member { warn(setup.notPairedLine) }
            lines.map(\.text).forEach(say)
        }
    }

    struct Add: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(
            abstract: "Print a one-time code that lets a new machine join (valid for 10 minutes).",
            discussion: "On the new machine, with the same --cloud-dir and --player: qiktionary devices join CODE"
        )
        @OptionGroup var shared: SharedOptions
        @Flag(help: "Print a JSON object: {\"code\", \"expires\"}.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            let (code, expires) = try setup.addDevice()
            let when = ISO8601DateFormatter().string(from: expires)
            if json { return printJSON(["code": code, "expires": when]) }
            say("Pairing code: \(code)")
            say("On the new machine run: qiktionary devices join \(code)")
            say("It works once, until \(when).")
        }
    }

    struct Join: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Join your machines with a code from 'devices add'.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The code 'qiktionary devices add' printed.", valueName: "code")) var code: String
        @Flag(help: "Print a JSON object.") var json = false

        func run() throws {
            let setup = try Setup.open(shared)
            let lines = try setup.joinDevices(code: code)
            if json { return printJSON(["devices": lines]) }
            say("Joined \(setup.profile.playerID)'s machines:")
            lines.forEach { say("  " + $0.text) }
            say("Your games come here at the next sync ('qiktionary sync', or just play).")
        }
    }

    struct Remove: ParsableCommand, UsesData {
        static let configuration = CommandConfiguration(abstract: "Take a machine out: what it writes from now on is refused.")
        @OptionGroup var shared: SharedOptions
        @Argument(help: ArgumentHelp("The machine's name, as 'qiktionary devices' lists it.", valueName: "name")) var name: String

        func run() throws {
            let setup = try Setup.open(shared)
            try setup.removeDevice(name)
            say("Took '\(name)' out of \(setup.profile.playerID)'s machines: what it writes from now on is refused.")
        }
    }
}
