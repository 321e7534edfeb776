import Testing
@testable import PlainMode

@Suite struct PlainCommandTests {
    @Test("Each command line parses", arguments: [
        ("crane", PlainCommand.guess("crane")),
        ("  Crane  ", .guess("Crane")),
        ("guess queue", .guess("queue")),
        ("new", .new(packID: nil)),
        ("new animals", .new(packID: "animals")),
        ("new --hard", .new(packID: nil, hard: true)),
        ("new --hard animals", .new(packID: "animals", hard: true)),
        ("new animals --HARD", .new(packID: "animals", hard: true)),
        ("hint", .hint),
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
        ("new a b", "usage: new [--hard] [PACK_ID]"),
        ("new --hard --hard", "usage: new [--hard] [PACK_ID]"),
        ("new --easy", "unknown option '--easy'"),
        ("resume abc --hard", "hard mode is chosen when a game starts"),
        ("hint please", "usage: hint"),
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
