import QiktionaryCore

/// One step of a run. Each names what it acts on by numbers taken modulo what is there when
/// it runs (the machine's games in progress, its history), so any part of a step list still
/// runs: that is what lets a failing list be shrunk.
public enum Step: CustomStringConvertible, Sendable, Equatable {
    case start(machine: Int, word: Int)
    case guess(machine: Int, game: Int, word: Int)
    /// The game's word guessed: a win.
    case finish(machine: Int, game: Int)
    case giveUp(machine: Int, game: Int)
    case mark(machine: Int, game: Int, letter: Int, state: Int)
    case bookmark(machine: Int, word: Int)
    case unbookmark(machine: Int, word: Int)
    /// A finished game deleted from the history.
    case delete(machine: Int, game: Int)
    /// `--reset-sync`: tokens and the cloud's metadata forgotten, everything queued again.
    case resetSync(machine: Int)
    /// Starts a sync round of the process, or lets its round go on: `stops` stops further, or
    /// to its end (0).
    case sync(machine: Int, process: Int, stops: Int)
    /// The process is killed where its round stopped, and starts again.
    case kill(machine: Int, process: Int)
    /// The process's store crashes at the `step`th step of writing a file from now (the
    /// file is left as a crash leaves it).
    case crashWriting(machine: Int, process: Int, step: Int)
    case clockJump(machine: Int, seconds: Int)
    /// Replicated folders: up to `count` of the files other machines wrote arrive at this
    /// machine's replica, in an order drawn from `order`, some cut short first.
    case deliver(machine: Int, count: Int, order: UInt64)
    /// The machine's player makes a match against the other player (refused while the other
    /// is not yet seen in the folder here); the match's words drawn from `seed`.
    case makeMatch(machine: Int, seed: UInt64)
    /// The machine's player starts (or resumes) their next game of the `match`th of their
    /// matches and plays a guess in it: one of `guesses`, or the game's word (a win) past them.
    case playMatch(machine: Int, match: Int, word: Int)

    static let secrets = ["tiger", "zebra", "horse", "camel", "snake"]
    static let guesses = ["crane", "pilot", "mouse", "shark", "whale", "bison", "sloth", "horse", "tiger", "zebra"]
    static let bookmarks = ["tiger", "zebra", "horse", "camel"]
    static let letters = Array("aeiorstnlc")
    static let markStates: [LetterMark?] = [.in, .out, nil]

    var machine: Int {
        switch self {
        case .start(let m, _), .guess(let m, _, _), .finish(let m, _), .giveUp(let m, _), .mark(let m, _, _, _), .bookmark(let m, _),
             .unbookmark(let m, _), .delete(let m, _), .resetSync(let m), .sync(let m, _, _), .kill(let m, _), .crashWriting(let m, _, _),
             .clockJump(let m, _), .deliver(let m, _, _), .makeMatch(let m, _), .playMatch(let m, _, _):
            return m
        }
    }

    public var description: String {
        switch self {
        case .start(let m, let w): "machine \(m) starts a game of '\(Self.secrets[w % Self.secrets.count])'"
        case .guess(let m, let g, let w): "machine \(m) guesses '\(Self.guesses[w % Self.guesses.count])' in game #\(g)"
        case .finish(let m, let g): "machine \(m) guesses the word of game #\(g)"
        case .giveUp(let m, let g): "machine \(m) gives up game #\(g)"
        case .mark(let m, let g, let l, let s):
            "machine \(m) marks '\(Self.letters[l % Self.letters.count])' \(Self.markStates[s % 3].map(\.rawValue) ?? "clear") in game #\(g)"
        case .bookmark(let m, let w): "machine \(m) bookmarks '\(Self.bookmarks[w % Self.bookmarks.count])'"
        case .unbookmark(let m, let w): "machine \(m) unbookmarks '\(Self.bookmarks[w % Self.bookmarks.count])'"
        case .delete(let m, let g): "machine \(m) deletes finished game #\(g)"
        case .resetSync(let m): "machine \(m) resets sync"
        case .sync(let m, let p, let s): "machine \(m) process \(p) syncs " + (s == 0 ? "(to the end of its round)" : "(\(s) stops on)")
        case .kill(let m, let p): "machine \(m) process \(p) is killed"
        case .crashWriting(let m, let p, let s): "machine \(m) process \(p) will crash at write step \(s)"
        case .clockJump(let m, let s): "machine \(m)'s clock jumps \(s) s"
        case .deliver(let m, let c, let o): "\(c) files arrive at machine \(m) (order \(o))"
        case .makeMatch(let m, let s): "machine \(m) makes a match against the other player (seed \(s))"
        case .playMatch(let m, let g, let w):
            "machine \(m) plays its next game of match #\(g): " + (w < Self.guesses.count ? "guesses '\(Self.guesses[w])'" : "guesses its word")
        }
    }
}

/// What a seed makes: the machines, their processes, the folder, and the steps.
public struct Plan: Sendable {
    public var seed: UInt64
    public var machines: Int
    public var processes: Int
    /// Each machine with its own replica of the folder, a copier between them.
    public var replicated: Bool
    /// Machines of a second player (0: the player is alone), after the first player's, one
    /// process each; with them both players join the folder and make and play matches.
    public var friendMachines: Int
    public var steps: [Step]

    /// All machines, the first player's then the second's.
    public var allMachines: Int { machines + friendMachines }

    /// `length`: how many steps (by default 8 to 32, drawn from the seed).
    public init(seed: UInt64, length: Int? = nil) {
        self.seed = seed
        var rng = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ 1)
        machines = Int.random(in: 2...3, using: &rng)
        processes = Int.random(in: 1...3, using: &rng)
        replicated = Int.random(in: 0..<3, using: &rng) == 0
        let (machines, processes, replicated) = (machines, processes, replicated)
        let length = length ?? Int.random(in: 8...32, using: &rng)
        func any(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
        steps = (0..<length).map { _ in
            let m = any(0..<machines)
            switch any(0..<(replicated ? 110 : 100)) {
            case 0..<8: return .start(machine: m, word: any(0..<Step.secrets.count))
            case 8..<26: return .guess(machine: m, game: any(0..<4), word: any(0..<Step.guesses.count))
            case 26..<30: return .finish(machine: m, game: any(0..<4))
            case 30..<33: return .giveUp(machine: m, game: any(0..<4))
            case 33..<40: return .mark(machine: m, game: any(0..<4), letter: any(0..<Step.letters.count), state: any(0..<3))
            case 40..<48: return .bookmark(machine: m, word: any(0..<Step.bookmarks.count))
            case 48..<54: return .unbookmark(machine: m, word: any(0..<Step.bookmarks.count))
            case 54..<57: return .delete(machine: m, game: any(0..<4))
            case 57..<58: return .resetSync(machine: m)
            // Half of them a whole round, so rounds end and overlap often; the others a stop or a few.
            case 58..<90: return .sync(machine: m, process: any(0..<processes), stops: any(0..<2) == 0 ? 0 : any(1..<4))
            case 90..<94: return .kill(machine: m, process: any(0..<processes))
            case 94..<96: return .crashWriting(machine: m, process: any(0..<processes), step: any(1..<12))
            case 96..<100: return .clockJump(machine: m, seconds: [-86_400, -3_600, -1, 1, 3_600, 86_400][any(0..<6)])
            default: return .deliver(machine: m, count: any(1..<6), order: UInt64(any(0..<1_000_000)))
            }
        }
        // Matches, from a generator of their own, so the steps above are those the seed gave
        // before there were matches: half the seeds add a second player with one or two
        // machines, and before one step in three a match step (or a sync of the second player's).
        var other = SeededGenerator(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 7)
        friendMachines = Int.random(in: 0..<2, using: &other) == 0 ? Int.random(in: 1...2, using: &other) : 0
        guard friendMachines > 0 else { return }
        let all = machines + friendMachines, friendMachines = friendMachines
        func draw(_ range: Range<Int>) -> Int { Int.random(in: range, using: &other) }
        steps = steps.flatMap { step -> [Step] in
            let roll = draw(0..<60)
            guard roll < 20 else { return [step] }
            let m = draw(0..<all)
            let added: Step = switch roll {
            case 0..<5: .makeMatch(machine: m, seed: UInt64(draw(0..<1_000_000)))
            case 5..<15: .playMatch(machine: m, match: draw(0..<4), word: draw(0..<(Step.guesses.count + 3)))
            default: .sync(machine: all - friendMachines + draw(0..<friendMachines), process: 0, stops: draw(0..<2) == 0 ? 0 : draw(1..<4))
            }
            return [added, step]
        }
    }
}
