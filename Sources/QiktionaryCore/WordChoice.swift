/// SplitMix64: a small, fast generator whose output depends only on its seed, so `--seed N`
/// picks the same word on every machine and every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Picks the secret for a new game.
public enum WordChoice {
    /// A word the player has not had yet when there is one, otherwise any word of `candidates`.
    /// `candidates` should come in a stable order (the pack's) for a seed to be repeatable.
    public static func choose<R: RandomNumberGenerator>(
        from candidates: [String], notYet played: Set<String>, using generator: inout R
    ) -> String? {
        let fresh = candidates.filter { !played.contains($0) }
        return (fresh.isEmpty ? candidates : fresh).randomElement(using: &generator)
    }
}
