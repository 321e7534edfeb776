/// Where a game stands. The order matters to sync: a status only ever moves up,
/// so two machines that disagree settle on the higher one.
public enum GameStatus: String, Sendable, CaseIterable, Codable, Comparable {
    case inProgress = "in-progress"
    case lost
    case gaveUp = "gave-up"
    case won

    public var isFinished: Bool { self != .inProgress }

    var rank: Int {
        switch self {
        case .inProgress: 0
        case .lost, .gaveUp: 1
        case .won: 2
        }
    }

    public static func < (a: GameStatus, b: GameStatus) -> Bool {
        a.rank != b.rank ? a.rank < b.rank : a.rawValue < b.rawValue
    }
}
