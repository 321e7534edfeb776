import Testing
@testable import PlainMode

@Suite struct PlainCommandTests {
    @Test("Each command line parses", arguments: [
        ("crane", PlainCommand.guess("crane")),
        ("  Crane  ", .guess("Crane")),
        ("guess queue", .guess("queue")),
        ("new", .new(packID: nil)),
        ("new animals", .new(packID: "animals")),
        ("resume abc", .resume(gameID: "abc")),
        ("games", .games),
        ("mark E in", .mark("e", .in)),
        ("mark x out", .mark("x", .out)),
        ("mark x clear", .mark("x", nil)),
        ("give-up", .giveUp),
        ("bookmark", .bookmark),
        ("unbookmark", .unbookmark),
        ("board", .board),
        ("HELP", .help),
        ("quit", .quit),
        ("", .nothing),
    ])
    func parses(line: String, command: PlainCommand) throws {
        #expect(try PlainCommand.parse(line) == command)
    }

    @Test("Malformed commands say how to use them", arguments: [
        ("guess", "usage: guess WORD"),
        ("new a b", "usage: new [PACK_ID]"),
        ("mark e", "usage: mark LETTER out|in|clear"),
        ("mark 9 in", "'9' is not a letter"),
        ("mark ab in", "'ab' is not a letter"),
        ("mark e maybe", "usage: mark"),
        ("quit now", "usage: quit"),
        ("dance the night", "unknown command 'dance'"),
    ])
    func refuses(line: String, message: String) {
        #expect { try PlainCommand.parse(line) } throws: { error in
            (error as? PlainCommand.Unknown)?.message.contains(message) == true
        }
    }
}
